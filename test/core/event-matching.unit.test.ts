// Event type patterns, filters and `{{path}}` templates as the core and the
// SDK export them (core/event-matching.ts). The engine's shared cases
// (test/workflows/engine/matching-cases.ts) cover the main rules; these add
// the edges: length limits, every validation message, how interpolation
// renders each JSON type, and templates deep in arrays and objects.
import t from 'tap';
import {
  evaluateFilter, isValidEventType, isValidTypePattern, matchesFilter, matchesTypePattern, MAX_TEMPLATE_LENGTH, resolveTemplates,
  scanTemplates, templatePaths, TemplateTooLongError, validateFilter, validateTemplates,
} from '../../core/event-matching.ts';

t.test('event types: dot-separated segments of letters, digits, _ and -, at most 200 characters', async (t) => {
  t.ok(isValidEventType('order.created'));
  t.ok(isValidEventType('a_b-c.D9'));
  t.ok(isValidEventType('x'.repeat(200)));
  t.notOk(isValidEventType('x'.repeat(201)));
  for (const bad of ['', '.order', 'order.', 'order..created', 'order created', 'order.*', 'ordér']) t.notOk(isValidEventType(bad), JSON.stringify(bad));
});

t.test('type patterns: a valid type, a prefix ending in *, or *; the * only at the end', async (t) => {
  for (const good of ['*', 'order.*', 'order.cre*', 'order.created', 'ord*']) t.ok(isValidTypePattern(good), good);
  for (const bad of ['**', '*.created', 'order.*.x', 'order*created', '', `${'x'.repeat(200)}*`]) t.notOk(isValidTypePattern(bad), JSON.stringify(bad));
  t.ok(matchesTypePattern('order.cre*', 'order.created'), 'a prefix need not end at a dot');
  t.ok(matchesTypePattern('order.*', 'order.line.added'), 'across dots');
  t.notOk(matchesTypePattern('order.*', 'order'), 'order.* needs the dot');
  t.notOk(matchesTypePattern('order', 'order.created'), 'an exact type is exact');
  t.ok(matchesTypePattern('*', ''));
});

t.test('validateFilter: every message names its key and condition', async (t) => {
  t.same(validateFilter(null), ['filter must be an object']);
  t.same(validateFilter([]), ['filter must be an object']);
  t.same(validateFilter({}), []);
  t.same(validateFilter({
    '': ['x'],
    'a..b': ['x'],
    empty: [],
    notArray: 'x',
    ops: [{ prefix: 1 }, { exists: 'yes' }, { numeric: ['>'] }, { numeric: ['!=', 1] }, { numeric: ['>', '1'] }, { numeric: ['>', Infinity] }, { regex: '.*' }, { prefix: 'a', exists: true }, [1], 'ok', 1, true, null],
  }), [
    '"": not a dot path',
    '"a..b": not a dot path',
    '"empty": conditions must be a non-empty array',
    '"notArray": conditions must be a non-empty array',
    '"ops"[0]: prefix must be a string',
    '"ops"[1]: exists must be true or false',
    '"ops"[2]: numeric must be [op, n] or [op, n, op, n]',
    '"ops"[3]: numeric operator must be one of > < >= <=',
    '"ops"[4]: numeric operand must be a number',
    '"ops"[5]: numeric operand must be a number',
    '"ops"[6]: unknown operator "regex"',
    '"ops"[7]: an operator object has exactly one of prefix, numeric, exists',
    '"ops"[8]: must be a literal or an operator object',
  ]);
  t.same(validateFilter({ 'data.total': [{ numeric: ['>=', 0, '<', 100] }] }), [], 'a range of two comparisons');
});

t.test('numeric ranges: both bounds must hold; bounds inclusive or not as written', async (t) => {
  const event = { data: { total: 100 } };
  t.ok(matchesFilter({ 'data.total': [{ numeric: ['>=', 100, '<=', 100] }] }, event));
  t.notOk(matchesFilter({ 'data.total': [{ numeric: ['>', 100] }] }, event));
  t.notOk(matchesFilter({ 'data.total': [{ numeric: ['>', 0, '<', 100] }] }, event));
  t.notOk(matchesFilter({ 'data.total': [{ numeric: ['>', 0] }] }, { data: { total: '100' } }), 'a numeric string is not a number');
});

t.test('evaluateFilter: the value found and why, per key; matched only when every key matched', async (t) => {
  const result = evaluateFilter({ 'data.a': [{ exists: false }], 'data.b': ['x', 'y'], 'data.c': [1] }, { data: { b: 'z', c: 1 } });
  t.same(result, {
    matched: false,
    keys: {
      'data.a': { matched: true, value: undefined, reason: 'matched {"exists":false}' },
      'data.b': { matched: false, value: 'z', reason: 'no condition matched "z"' },
      'data.c': { matched: true, value: 1, reason: 'matched 1' },
    },
  });
  t.same(evaluateFilter({ 'data.x': ['a'] }, 'not an object').keys['data.x'], { matched: false, value: undefined, reason: 'path is missing' });
  t.same(evaluateFilter({}, {}), { matched: true, keys: {} });
});

t.test('resolveTemplates: interpolation renders objects as JSON, drops null and missing, keeps numbers and booleans as text', async (t) => {
  const context = { event: { data: { n: 3, ok: false, obj: { a: [1] }, none: null } } };
  t.equal(resolveTemplates('n={{event.data.n}} ok={{ event.data.ok }} obj={{event.data.obj}} none=[{{event.data.none}}] gone=[{{event.data.gone}}]', context),
    'n=3 ok=false obj={"a":[1]} none=[] gone=[]');
  t.same(resolveTemplates('{{ event.data.obj }}', context), { a: [1] }, 'a whole template, spaces inside, keeps the type');
  t.equal(resolveTemplates('{{event.data.gone}}', context), null);
  t.same(resolveTemplates({ list: ['{{event.data.n}}', 7, null, { deep: '{{event.data.ok}}' }] }, context), { list: [3, 7, null, { deep: false }] });
  t.equal(resolveTemplates('no templates }}', context), 'no templates }}');
  t.equal(resolveTemplates('{{event.data.n}}{{event.data.n}}', context), '33', 'two whole templates are interpolated');
});

t.test('templates over MAX_TEMPLATE_LENGTH: refused by validation, thrown at run time; without templates any length passes', async (t) => {
  const long = `{{a}}${' '.repeat(MAX_TEMPLATE_LENGTH)}`;
  t.throws(() => resolveTemplates(long, { a: 1 }), new TemplateTooLongError(long.length));
  t.equal(new TemplateTooLongError(70_000).message, `a string with templates is 70000 characters long; the limit is ${MAX_TEMPLATE_LENGTH}`);
  t.match(validateTemplates([long]), [new RegExp(`^a string with templates may be at most ${MAX_TEMPLATE_LENGTH} characters \\(this one has ${long.length}\\): "\\{\\{a\\}\\} {195}…"$`)]);
  const plain = 'x'.repeat(MAX_TEMPLATE_LENGTH + 1);
  t.equal(resolveTemplates(plain, {}), plain);
  t.same(validateTemplates(plain), []);
});

t.test('validateTemplates: unbalanced braces, paths that are not dot paths, paths not allowed', async (t) => {
  t.same(validateTemplates('{{a}} }}'), ['unbalanced braces in "{{a}} }}"']);
  t.same(validateTemplates('{{ a b }}'), ['"{{a b}}" is not a dot path']);
  t.same(validateTemplates('{{1a}}'), ['"{{1a}}" is not a dot path']);
  t.same(validateTemplates({ x: ['{{event.data.id}}', '{{secrets.key}}'] }, (path) => path.startsWith('event.')), ['"{{secrets.key}}" is not an allowed path']);
  t.same(validateTemplates({ n: 1, b: true, s: 'plain' }), []);
});

t.test('scanTemplates and templatePaths: positions, trimmed paths, deep values', async (t) => {
  t.same(scanTemplates('a {{ x.y }} b {{z}}'), [{ start: 2, end: 11, path: 'x.y' }, { start: 14, end: 19, path: 'z' }]);
  t.same(scanTemplates('{{a{{b}}'), [{ start: 3, end: 8, path: 'b' }], 'an opening that meets another brace first is no template');
  t.same(scanTemplates('{{ never closed'), []);
  t.same(templatePaths({ a: ['{{x}}', { b: '{{y}} and {{z}}' }], c: 3 }), ['x', 'y', 'z']);
  t.same(templatePaths(42), []);
});

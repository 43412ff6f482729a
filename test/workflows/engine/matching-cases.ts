// Cases for the engine's event filters, type patterns and templates (shared by
// triggers and WAIT steps), written once with node:assert (built into Node and
// Deno) and run by both: matching.test.ts (node-tap) and matching.deno.ts.
import assert from 'node:assert/strict';
import {
  evaluateFilter, isValidEventType, isValidTypePattern, matchesFilter, matchesTypePattern, MAX_TEMPLATE_LENGTH, resolveTemplates,
  scanTemplates, templatePaths, TemplateTooLongError, validateFilter, validateTemplates, type EventFilter,
} from '../../../workflows/engine/index.ts';

export interface MatchingCase {
  name: string;
  fn: () => void;
}

const event = {
  type: 'order.created',
  source: '/shop/eu',
  id: 'e-1',
  time: '2025-05-01T10:00:00.000Z',
  tenantid: 'acme',
  data: {
    id: 42,
    total: 250.5,
    country: 'NO',
    status: 'paid',
    coupon: null,
    express: false,
    tags: ['gift', 'vip'],
    customer: { email: 'ada@example.com', tier: 'gold', address: { city: 'Oslo' } },
    lines: [{ sku: 'A-1', qty: 2 }],
    zero: 0,
    text_number: '300',
  },
};

const match = (filter: EventFilter) => matchesFilter(filter, event);

export const cases: MatchingCase[] = [
  {
    name: 'exact: a literal matches an equal value of the same JSON type only',
    fn: () => {
      assert.equal(match({ 'data.country': ['NO'] }), true);
      assert.equal(match({ 'data.country': ['SE'] }), false);
      assert.equal(match({ 'data.id': [42] }), true);
      assert.equal(match({ 'data.id': ['42'] }), false, 'a string does not equal a number');
      assert.equal(match({ 'data.express': [false] }), true);
      assert.equal(match({ 'data.zero': [0] }), true);
      assert.equal(match({ 'data.zero': [false] }), false, 'no truthiness: 0 is not false');
      assert.equal(match({ 'data.coupon': [null] }), true, 'null matches a null value');
      assert.equal(match({ 'data.missing': [null] }), false, 'but not a missing path');
      assert.equal(match({ type: ['order.created'] }), true, 'top-level envelope fields are paths too');
    },
  },
  {
    name: 'any of: the values of one array combine with OR',
    fn: () => {
      assert.equal(match({ 'data.country': ['SE', 'DK', 'NO'] }), true);
      assert.equal(match({ 'data.country': ['SE', 'DK'] }), false);
      assert.equal(match({ 'data.status': [{ prefix: 'pen' }, 'paid'] }), true, 'literals and operators mix');
      assert.equal(match({ 'data.total': [{ numeric: ['<', 10] }, { numeric: ['>', 200] }] }), true);
    },
  },
  {
    name: 'several keys combine with AND',
    fn: () => {
      assert.equal(match({ 'data.country': ['NO'], 'data.status': ['paid'], source: [{ prefix: '/shop/' }] }), true);
      assert.equal(match({ 'data.country': ['NO'], 'data.status': ['refunded'] }), false);
      assert.equal(match({}), true, 'an empty filter matches every event');
    },
  },
  {
    name: 'prefix: strings only',
    fn: () => {
      assert.equal(match({ source: [{ prefix: '/shop' }] }), true);
      assert.equal(match({ source: [{ prefix: '/shop/us' }] }), false);
      assert.equal(match({ 'data.customer.email': [{ prefix: '' }] }), true, 'the empty prefix matches any string');
      assert.equal(match({ 'data.id': [{ prefix: '4' }] }), false, 'a number is not a string');
      assert.equal(match({ 'data.missing': [{ prefix: '' }] }), false, 'a missing path never matches');
    },
  },
  {
    name: 'numeric: one comparison or a range of two, numbers only',
    fn: () => {
      assert.equal(match({ 'data.total': [{ numeric: ['>', 250] }] }), true);
      assert.equal(match({ 'data.total': [{ numeric: ['>=', 250.5] }] }), true);
      assert.equal(match({ 'data.total': [{ numeric: ['<', 250.5] }] }), false);
      assert.equal(match({ 'data.total': [{ numeric: ['<=', 250.5] }] }), true);
      assert.equal(match({ 'data.total': [{ numeric: ['>', 100, '<=', 300] }] }), true, 'inside the range');
      assert.equal(match({ 'data.total': [{ numeric: ['>', 100, '<', 250.5] }] }), false, 'the upper bound is exclusive');
      assert.equal(match({ 'data.total': [{ numeric: ['>', 300, '<', 100] }] }), false, 'an empty range matches nothing');
      assert.equal(match({ 'data.text_number': [{ numeric: ['>', 1] }] }), false, 'a numeric string is not a number');
      assert.equal(match({ 'data.missing': [{ numeric: ['>', 0] }] }), false);
      assert.equal(match({ 'data.zero': [{ numeric: ['>=', 0] }] }), true);
    },
  },
  {
    name: 'exists: true for a present, non-null value; false for missing or null',
    fn: () => {
      assert.equal(match({ 'data.customer.tier': [{ exists: true }] }), true);
      assert.equal(match({ 'data.customer.phone': [{ exists: true }] }), false);
      assert.equal(match({ 'data.customer.phone': [{ exists: false }] }), true);
      assert.equal(match({ 'data.coupon': [{ exists: false }] }), true, 'null counts as absent');
      assert.equal(match({ 'data.express': [{ exists: true }] }), true, 'false is a value');
      assert.equal(match({ 'data.zero': [{ exists: true }] }), true, '0 is a value');
    },
  },
  {
    name: 'dot paths: nested objects, array indexes; missing or scalar intermediates do not match',
    fn: () => {
      assert.equal(match({ 'data.customer.address.city': ['Oslo'] }), true);
      assert.equal(match({ 'data.lines.0.sku': ['A-1'] }), true, 'an index into an array');
      assert.equal(match({ 'data.lines.1.sku': [{ exists: false }] }), true, 'past the end is missing');
      assert.equal(match({ 'data.country.code': [{ exists: false }] }), true, 'a path through a string is missing');
      assert.equal(match({ 'data.customer.address.city.name': ['Oslo'] }), false);
      assert.equal(match({ 'data.__proto__': [{ exists: true }] }), false, 'inherited properties are not paths');
      assert.equal(match({ 'data.tags': ['gift'] }), false, 'an array value is not an any-of: it equals no literal');
    },
  },
  {
    name: 'evaluateFilter explains every key: matched, the value found, why',
    fn: () => {
      const result = evaluateFilter({
        'data.total': [{ numeric: ['>=', 100] }], 'data.country': ['SE'], 'data.missing': ['x'], 'data.coupon': [{ exists: false }],
      }, event);
      assert.equal(result.matched, false);
      assert.deepEqual(result.keys['data.total'], { matched: true, value: 250.5, reason: 'matched {"numeric":[">=",100]}' });
      assert.deepEqual(result.keys['data.country'], { matched: false, value: 'NO', reason: 'no condition matched "NO"' });
      assert.deepEqual(result.keys['data.missing'], { matched: false, value: undefined, reason: 'path is missing' });
      assert.deepEqual(result.keys['data.coupon'], { matched: true, value: null, reason: 'matched {"exists":false}' });
      assert.equal(evaluateFilter({ 'data.id': [42] }, event).matched, true);
    },
  },
  {
    name: 'validateFilter names each problem and its key',
    fn: () => {
      assert.deepEqual(validateFilter({ 'data.a': [1, 'x', null, true, { prefix: 'p' }, { numeric: ['>', 1, '<=', 9] }, { exists: false }] }), []);
      assert.deepEqual(validateFilter([]), ['filter must be an object']);
      assert.deepEqual(validateFilter(null), ['filter must be an object']);
      assert.deepEqual(validateFilter({ 'a..b': [1] }), ['"a..b": not a dot path']);
      assert.deepEqual(validateFilter({ a: 1 }), ['"a": conditions must be a non-empty array']);
      assert.deepEqual(validateFilter({ a: [] }), ['"a": conditions must be a non-empty array']);
      assert.deepEqual(validateFilter({ a: [[1]] }), ['"a"[0]: must be a literal or an operator object']);
      assert.deepEqual(validateFilter({ a: [{ prefix: 1 }] }), ['"a"[0]: prefix must be a string']);
      assert.deepEqual(validateFilter({ a: [{ exists: 'yes' }] }), ['"a"[0]: exists must be true or false']);
      assert.deepEqual(validateFilter({ a: [{ numeric: ['>'] }] }), ['"a"[0]: numeric must be [op, n] or [op, n, op, n]']);
      assert.deepEqual(validateFilter({ a: [{ numeric: ['=', 1] }] }), ['"a"[0]: numeric operator must be one of > < >= <=']);
      assert.deepEqual(validateFilter({ a: [{ numeric: ['>', '1'] }] }), ['"a"[0]: numeric operand must be a number']);
      assert.deepEqual(validateFilter({ a: [{ prefix: 'x', exists: true }] }), ['"a"[0]: an operator object has exactly one of prefix, numeric, exists']);
      assert.deepEqual(validateFilter({ a: [{ suffix: 'x' }] }), ['"a"[0]: unknown operator "suffix"']);
    },
  },
  {
    name: 'type patterns: exact, a trailing * across dots, a lone * for all',
    fn: () => {
      assert.equal(matchesTypePattern('document.*', 'document.ingestion.completed'), true, 'across dots');
      assert.equal(matchesTypePattern('document.*', 'document.uploaded'), true);
      assert.equal(matchesTypePattern('document.*', 'document'), false, 'the dot is part of the prefix');
      assert.equal(matchesTypePattern('document.*', 'documents.uploaded'), false);
      assert.equal(matchesTypePattern('doc*', 'document.uploaded'), true, 'a * after part of a segment');
      assert.equal(matchesTypePattern('*', 'anything.at.all'), true);
      assert.equal(matchesTypePattern('order.created', 'order.created'), true);
      assert.equal(matchesTypePattern('order.created', 'order.created.v2'), false, 'exact means exact');
      assert.equal(isValidTypePattern('*'), true);
      assert.equal(isValidTypePattern('document.*'), true);
      assert.equal(isValidTypePattern('chat.tool.called'), true);
      assert.equal(isValidTypePattern('a*.b'), false, 'the * only at the end');
      assert.equal(isValidTypePattern('**'), false);
      assert.equal(isValidTypePattern('a..*'), false);
      assert.equal(isValidTypePattern(''), false);
      assert.equal(isValidEventType('order.created'), true);
      assert.equal(isValidEventType('order.*'), false, 'an event type is never a pattern');
      assert.equal(isValidEventType('has space'), false);
      assert.equal(isValidEventType('x'.repeat(201)), false);
    },
  },
  {
    name: 'templates: a whole template keeps the JSON type, inner ones interpolate, plain strings pass through, unresolved gives null',
    fn: () => {
      const context = { event };
      assert.deepEqual(resolveTemplates({
        id: '{{event.data.id}}',
        total: '{{ event.data.total }}',
        customer: '{{event.data.customer}}',
        tags: '{{event.data.tags}}',
        express: '{{event.data.express}}',
        coupon: '{{event.data.coupon}}',
        missing: '{{event.data.nope}}',
        deep_missing: '{{event.data.customer.nope.deeper}}',
        label: 'Order {{event.data.id}} in {{event.data.customer.address.city}}',
        with_missing: 'x{{event.data.nope}}y',
        with_object: 'c={{event.data.lines}}',
        plain: 'no templates here',
        number: 7,
        nested: { list: ['{{event.type}}', 'const', { at: '{{event.time}}' }] },
      }, context), {
        id: 42,
        total: 250.5,
        customer: event.data.customer,
        tags: ['gift', 'vip'],
        express: false,
        coupon: null,
        missing: null,
        deep_missing: null,
        label: 'Order 42 in Oslo',
        with_missing: 'xy',
        with_object: 'c=[{"sku":"A-1","qty":2}]',
        plain: 'no templates here',
        number: 7,
        nested: { list: ['order.created', 'const', { at: '2025-05-01T10:00:00.000Z' }] },
      });
      assert.equal(resolveTemplates('{{', context), '{{', 'a lone opener passes through');
      assert.deepEqual(templatePaths({ a: '{{event.id}} and {{ event.type }}', b: ['{{event.data.x}}'] }), ['event.id', 'event.type', 'event.data.x']);
    },
  },
  {
    name: 'validateTemplates: malformed templates and paths outside what is allowed',
    fn: () => {
      const allowed = (path: string) => ['event.type', 'event.id', 'event.data'].includes(path) || path.startsWith('event.data.');
      assert.deepEqual(validateTemplates({ a: '{{event.type}}', b: ['x {{event.data.y.z}} y'], c: 5 }, allowed), []);
      assert.deepEqual(validateTemplates({ a: '{{event.subject}}' }, allowed), ['"{{event.subject}}" is not an allowed path']);
      assert.deepEqual(validateTemplates({ a: '{{inputs.x}}' }, allowed), ['"{{inputs.x}}" is not an allowed path']);
      assert.deepEqual(validateTemplates('id {{event.data.id', allowed), ['unbalanced braces in "id {{event.data.id"']);
      assert.deepEqual(validateTemplates('a }} b', allowed), ['unbalanced braces in "a }} b"']);
      assert.deepEqual(validateTemplates('{{event.data.}}', allowed), ['"{{event.data.}}" is not a dot path']);
      assert.deepEqual(validateTemplates('{{ }}', allowed), ['"{{}}" is not a dot path']);
      assert.deepEqual(validateTemplates('{{anything.goes}}'), [], 'without an allow-list any dot path is valid');
    },
  },
  {
    name: 'scanTemplates: finds what the former regular expression found, braces inside a template included',
    fn: () => {
      assert.deepEqual(scanTemplates('a {{ x.y }} b {{z}}'), [{ start: 2, end: 11, path: 'x.y' }, { start: 14, end: 19, path: 'z' }]);
      assert.deepEqual(scanTemplates('{{{a}}}'), [{ start: 1, end: 6, path: 'a' }], 'an opening that meets a brace first is skipped');
      assert.deepEqual(scanTemplates('{{a}b}} {{c}}'), [{ start: 8, end: 13, path: 'c' }]);
      assert.deepEqual(scanTemplates('{{ \t\n }}'), [{ start: 0, end: 8, path: '' }]);
      assert.deepEqual(scanTemplates('{{'), []);
      assert.deepEqual(scanTemplates(''), []);
      // The former pattern, run only on short strings where it is quick: both agree on every string.
      const former = /\{\{\s*([^{}]*?)\s*\}\}/g;
      const alphabet = ['{', '}', ' ', 'a', '.', '\u00a0'];
      let seed = 7;
      const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
      for (let i = 0; i < 3000; i++) {
        const text = Array.from({ length: next() % 14 }, () => alphabet[next() % alphabet.length]).join('');
        const expected = [...text.matchAll(former)].map((m) => ({ start: m.index!, end: m.index! + m[0].length, path: m[1] }));
        assert.deepEqual(scanTemplates(text), expected, JSON.stringify(text));
      }
    },
  },
  {
    name: 'templates: "{{" followed by 100,000 spaces is scanned in linear time, and refused past the length limit',
    fn: () => {
      const open = `{{${' '.repeat(100_000)}`;
      assert.deepEqual(scanTemplates(open), []);
      assert.deepEqual(scanTemplates(`${open}}}`), [{ start: 0, end: 100_004, path: '' }]);
      assert.deepEqual(scanTemplates(`x${open}event.id }}`), [{ start: 1, end: 100_014, path: 'event.id' }]);
      assert.deepEqual(validateTemplates(open), [`a string with templates may be at most 65536 characters (this one has 100002): "${open.slice(0, 200)}…"`]);
      assert.throws(() => resolveTemplates(open, { event }), TemplateTooLongError);
      // Under the limit, the same shapes are resolved.
      const under = `{{${' '.repeat(60_000)}`;
      assert.equal(resolveTemplates(under, { event }), under, 'no closing braces: passes through');
      assert.deepEqual(validateTemplates(under), [`unbalanced braces in "${under.slice(0, 200)}…"`]);
      assert.equal(resolveTemplates(`${under}}}`, { event }), null, 'an empty path resolves to nothing');
      assert.deepEqual(validateTemplates(`${under}}}`), ['"{{}}" is not a dot path']);
      assert.equal(resolveTemplates(`${under}event.id }}`, { event }), 'e-1');
      assert.deepEqual(templatePaths(`x${under}event.type }}`), ['event.type']);
    },
  },
  {
    name: 'templates: a string with templates longer than the limit is refused by validation and not evaluated at run time',
    fn: () => {
      const long = `${'x'.repeat(MAX_TEMPLATE_LENGTH)}{{event.id}}`;
      const errors = validateTemplates({ a: long });
      assert.equal(errors.length, 1);
      assert.match(errors[0], /^a string with templates may be at most 65536 characters \(this one has 65548\)/);
      assert.throws(() => resolveTemplates({ a: long }, { event }), TemplateTooLongError);
      const plain = 'y'.repeat(MAX_TEMPLATE_LENGTH + 1);
      assert.deepEqual(validateTemplates(plain), [], 'a long string without templates is no template');
      assert.equal(resolveTemplates(plain, { event }), plain);
      const atLimit = `${'x'.repeat(MAX_TEMPLATE_LENGTH - 12)}{{event.id}}`;
      assert.deepEqual(validateTemplates(atLimit), []);
      assert.equal(resolveTemplates(atLimit, { event }), `${'x'.repeat(MAX_TEMPLATE_LENGTH - 12)}e-1`);
    },
  },
];

// The platform's one Ajv factory: tenant patterns run on a
// linear-time engine (RE2); a pattern it cannot run is dropped with one
// warning; one tenant's $id is not registered for another to $ref.
import t from 'tap';
import { cachedSchemaCount, createAjv, onDroppedPattern } from '../../core/json-schema.ts';
import { compileLinear, linearPatternProblem, MAX_PATTERN_LENGTH } from '../../core/linear-regexp.ts';

t.test('pattern and patternProperties run on the linear engine; a backtracking pattern answers at once', async (t) => {
  const ajv = createAjv();
  const schema = {
    type: 'object',
    properties: { code: { type: 'string', pattern: '^(a+)+$' } },
    patternProperties: { '^x-(y+)+$': { type: 'number' } },
  };
  const validate = ajv.compile(schema);
  t.equal(validate({ code: `${'a'.repeat(5000)}!` }), false);
  t.match(validate.errors, [{ keyword: 'pattern', instancePath: '/code' }]);
  t.equal(validate({ code: 'aaaa', [`x-${'y'.repeat(5000)}!`]: 'not checked: the key does not match' }), true);
  t.equal(validate({ 'x-yyy': 'a string' }), false, 'a matching key applies its schema');
  t.ok(compileLinear('^\\p{L}+$').test('café'), 'Unicode classes work');
  t.ok(compileLinear('^\\u0041[^]$').test('A\n'), 'JavaScript-only syntax is translated');
});

t.test('a pattern RE2 cannot run is dropped with one warning per pattern; the rest of the schema applies', async (t) => {
  const warnings: string[] = [];
  onDroppedPattern((pattern, reason) => warnings.push(`${pattern}: ${reason}`));
  t.teardown(() => onDroppedPattern(() => {}));
  const ajv = createAjv();
  const schema = { type: 'object', required: ['n'], properties: { pair: { type: 'string', pattern: '^(x)\\1$' }, n: { type: 'number' } } };
  const validate = ajv.compile(schema);
  t.equal(validate({ pair: 'xy', n: 1 }), true, 'the dropped pattern accepts any string');
  t.equal(validate({ pair: 'xy' }), false, 'the rest of the schema still applies');
  ajv.compile({ type: 'string', pattern: '^(x)\\1$', minLength: 1 });
  t.equal(warnings.length, 1, 'warned once for the same pattern');
  t.match(warnings[0], /^\^\(x\)\\1\$: the pattern cannot run on a linear-time engine/);
  t.match(linearPatternProblem('(?=a)b'), /cannot run on a linear-time engine/);
  t.match(linearPatternProblem('a'.repeat(MAX_PATTERN_LENGTH + 1)), /the limit is 4096/);
  t.equal(linearPatternProblem('^[a-z]{1,64}$'), undefined);
});

t.test('compiled schemas are removable, and a $id is not shared with later schemas', async (t) => {
  const ajv = createAjv({ useDefaults: true });
  const start = cachedSchemaCount(ajv);
  const schema = { $id: 'https://tenant-a.example/s', type: 'object', properties: { v: { type: 'number', default: 3 } } };
  const validate = ajv.compile(schema);
  const data: Record<string, unknown> = {};
  t.equal(validate(data), true);
  t.same(data, { v: 3 }, 'useDefaults fills defaults in');
  t.equal(cachedSchemaCount(ajv), start + 1);
  const other = { $id: 'https://tenant-a.example/s', type: 'string' };
  t.doesNotThrow(() => ajv.compile(other), 'the same $id in another schema does not clash');
  const referring = { $ref: 'https://tenant-a.example/s' };
  t.throws(() => ajv.compile(referring), /can't resolve reference/, 'nor can it be referenced');
  for (const compiled of [schema, other, referring]) ajv.removeSchema(compiled);
  t.equal(cachedSchemaCount(ajv), start, 'removing what was compiled (a failed compile included) empties the cache again');
});

// Free-form JSON of the source routes (source_config, a stream's record
// schema) is bounded in depth, and the text guard walks every payload whole:
// a NUL far down a configuration, or nesting past the bounds, is a clear 400
// and nothing is stored (it was a 500 from PostgreSQL).
import t from 'tap';
import { sourcesPlatform, stored } from './helpers.ts';

/** `leaf` under `levels` nested objects. */
function nested(levels: number, leaf: unknown): Record<string, unknown> {
  let value: unknown = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value as Record<string, unknown>;
}

/** A platform_function source: its `arguments` are free-form JSON of the configuration. */
const create = (args: Record<string, unknown>) => ({ name: 'deep', pattern_id: 'platform_function', source_config: { function: 'list_clients', arguments: args } });

t.test('a NUL below 64 levels, or nesting past the bounds, is a 400 and nothing is stored', async (t) => {
  const { tp, asAcme } = await sourcesPlatform(t);

  const nulDeep = await asAcme('POST', '/api/v1/sources', create(nested(70, 'a\u0000b')));
  t.equal(nulDeep.status, 400, 'NUL at depth 70');
  t.equal(nulDeep.body.code, 'PAYLOAD_TOO_DEEP');
  t.match(nulDeep.body.message, /nested deeper than 64 levels/);

  const hundred = await asAcme('POST', '/api/v1/sources', create(nested(100, 1)));
  t.equal(hundred.status, 400, 'depth 100');
  t.equal(hundred.body.code, 'PAYLOAD_TOO_DEEP');

  const past32 = await asAcme('POST', '/api/v1/sources', create(nested(40, 1)));
  t.equal(past32.status, 400, 'source_config past its own bound (32 levels)');
  t.equal(past32.body.code, 'VALIDATION_FAILED');
  t.match(past32.body.message, /nested deeper than 32 levels/);

  const nulWithin = await asAcme('POST', '/api/v1/sources', create(nested(50, 'a\u0000b')));
  t.equal(nulWithin.status, 400, 'NUL at depth 50');
  t.equal(nulWithin.body.code, 'INVALID_TEXT');
  t.same(await stored(tp, 'SELECT id FROM pipeline_sources'), [], 'nothing stored');

  // The same bounds on update and on a stream's record schema.
  const made = await asAcme('POST', '/api/v1/sources', create(nested(3, 'fine')));
  t.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  const patched = await asAcme('PATCH', `/api/v1/sources/${id}`, { source_config: { function: 'list_clients', arguments: nested(70, 'a\u0000b') } });
  t.equal(patched.status, 400);
  t.equal(patched.body.code, 'PAYLOAD_TOO_DEEP');
  const stream = await asAcme('POST', `/api/v1/sources/${id}/streams`, { name: 'records', schema: nested(40, { type: 'object' }) });
  t.equal(stream.status, 400);
  t.equal(stream.body.code, 'VALIDATION_FAILED');
  t.same((await stored(tp, 'SELECT source_config FROM pipeline_sources')).map((row) => row.source_config.arguments), [nested(3, 'fine')], 'unchanged');
  t.same(await stored(tp, 'SELECT id FROM pipeline_streams'), []);
});

t.test('the guard bounds every payload as a whole, whatever the route\'s schema', async (t) => {
  const { asAcme } = await sourcesPlatform(t);
  // Refused by the guard before joi sees the (unknown) field: any route, any field.
  const arrays = await asAcme('POST', '/api/v1/sources', JSON.parse(`{"name":"x","extra":${'['.repeat(64)}1${']'.repeat(64)}}`));
  t.equal(arrays.status, 400);
  t.match(arrays.body, { code: 'PAYLOAD_TOO_DEEP', fields: ['payload'] });
  const within = await asAcme('POST', '/api/v1/sources', JSON.parse(`{"name":"x","extra":${'['.repeat(63)}"a\\u0000b"${']'.repeat(63)}}`));
  t.equal(within.status, 400);
  t.equal(within.body.code, 'INVALID_TEXT', 'within the bound, every string is looked at');
  t.match(within.body.fields, [/^payload\.extra\.0\.0/]);
});

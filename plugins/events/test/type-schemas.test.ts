// Custom event-type schemas are tenant-written: their
// `pattern`s run on a linear-time engine (a backtracking pattern cannot stall
// the process), a pattern that engine cannot run is dropped rather than
// refusing the schema, and re-reading a tenant's types does not make Ajv keep
// one more compiled schema each time.
import t from 'tap';
import { compiledSchemaCount } from '../stream/type-registry.ts';
import { emit, eventsFixture } from './helpers.ts';

const base = '/api/admin/triggers/events/types/custom';
const evil = `${'a'.repeat(40)}!`;

t.test('a backtracking pattern in a custom type is checked in linear time, at creation and at every emit', async (t) => {
  const { tp, token } = await eventsFixture(t, { workflow: false });
  const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } };
  const created = await tp.request({ method: 'POST', url: base, token, payload: { type: 'code.seen', schema, sample_payload: { code: evil } } });
  t.equal(created.status, 201, JSON.stringify(created.body));
  t.same(created.body.warnings, ['sample_payload/code must match pattern "^(a+)+$"']);

  const warned = await emit(tp, token, 'code.seen', { code: evil });
  t.same(warned.warnings, ['data/code must match pattern "^(a+)+$" (schema of code.seen)']);
  t.same((await emit(tp, token, 'code.seen', { code: 'aaaa' })).warnings, []);
  // The event loop was not blocked: another request is answered.
  t.equal((await tp.request({ url: '/api/admin/triggers/events/recent', token })).status, 200);
});

t.test('a pattern the linear engine cannot run (backreference, lookahead) is dropped: the schema is accepted and the rest of it applies', async (t) => {
  const { tp, token } = await eventsFixture(t, { workflow: false });
  const schema = {
    type: 'object', required: ['n'],
    properties: { pair: { type: 'string', pattern: '^(x)\\1$' }, ahead: { type: 'string', pattern: '^(?=a)a+$' }, n: { type: 'number' } },
  };
  const created = await tp.request({ method: 'POST', url: base, token, payload: { type: 'pair.seen', schema } });
  t.equal(created.status, 201, JSON.stringify(created.body));
  t.same((await emit(tp, token, 'pair.seen', { pair: 'xy', ahead: 'b', n: 1 })).warnings, [], 'the dropped patterns accept any string');
  t.same((await emit(tp, token, 'pair.seen', { pair: 'xy' })).warnings, ['data must have required property \'n\' (schema of pair.seen)']);
});

t.test('re-reading and updating custom types keeps the compiled schemas bounded', async (t) => {
  const { tp, token } = await eventsFixture(t, { workflow: false });
  const schemaOf = (i: number) => ({ type: 'object', properties: { amount: { type: 'number', maximum: 1000 + i } } });
  for (const type of ['steady.one', 'steady.two', 'changing.one']) {
    t.equal((await tp.request({ method: 'POST', url: base, token, payload: { type, schema: schemaOf(0) } })).status, 201);
  }
  await emit(tp, token, 'steady.one', { amount: 1 });
  const before = compiledSchemaCount();
  for (let i = 1; i <= 60; i++) {
    // Each update makes the next emit re-read all three types of the tenant.
    const updated = await tp.request({ method: 'PUT', url: `${base}/changing.one`, token, payload: { schema: schemaOf(i) } });
    t.equal(updated.status, 200);
    const emitted = await emit(tp, token, 'changing.one', { amount: 1000 + i + 1 });
    if (i === 60) t.same(emitted.warnings, ['data/amount must be <= 1060 (schema of changing.one)'], 'the newest schema applies');
    await emit(tp, token, 'steady.two', { amount: 1 });
  }
  const after = compiledSchemaCount();
  t.ok(after - before <= 1, `compiled schemas stay bounded (before ${before}, after ${after}; 60 updates and re-reads)`);
  // Deleting a type releases its schema too.
  t.equal((await tp.request({ method: 'DELETE', url: `${base}/changing.one`, token })).status, 204);
  await emit(tp, token, 'steady.one', { amount: 1 });
  t.ok(compiledSchemaCount() <= before, `a deleted type's schema is released (${compiledSchemaCount()} ≤ ${before})`);
});

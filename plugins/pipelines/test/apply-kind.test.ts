// The declarative kind Pipeline: dry-run plans create, noop, patch
// (with field paths) or error (an invalid DAG) and writes nothing; apply
// creates and updates in its transaction.
import t from 'tap';
import { diamond, pipelinesPlatform } from './helpers.ts';

const API = 'agent-platform/v1';
const doc = (name: string, spec: Record<string, unknown>) => ({ apiVersion: API, kind: 'Pipeline', metadata: { name }, spec });

t.test('Pipeline documents: create, noop, patch, error; dry-run writes nothing', async (t) => {
  const { asAcme } = await pipelinesPlatform(t);
  const planned = await asAcme('POST', '/api/v1/apply/dry-run', {
    docs: [
      doc('orders_flow', { steps: diamond(), sensor: true }),
      doc('cyclic', { steps: [{ id: 'a', sql: 'SELECT 1 AS x', output: 'a', inputs: ['b'] }, { id: 'b', sql: 'SELECT 1 AS x', output: 'b', inputs: ['a'] }] }),
      doc('bad', { steps: 'nope' }),
    ],
  });
  t.equal(planned.status, 200);
  const [create, cyclic, bad] = planned.body.results;
  t.match(create, { kind: 'Pipeline', name: 'orders_flow', action: 'create' });
  t.match(cyclic, { action: 'error', message: /a -> b form a cycle/ });
  t.match(bad, { action: 'error', message: /steps/ });
  t.equal((await asAcme('GET', '/api/v1/pipelines')).body.total, 0, 'a dry-run stores nothing');

  const applied = await asAcme('POST', '/api/v1/apply', { docs: [doc('orders_flow', { steps: diamond(), sensor: true })] });
  t.match(applied.body, { applied: true, results: [{ action: 'create' }] });
  const stored = await asAcme('GET', `/api/v1/pipelines/${applied.body.results[0].id}`);
  t.match(stored.body, { name: 'orders_flow', sensor: true, state: 'draft' });
  t.equal(stored.body.steps.length, 4);

  const again = await asAcme('POST', '/api/v1/apply/dry-run', { docs: [doc('orders_flow', { steps: diamond(), sensor: true })] });
  t.match(again.body.results[0], { action: 'noop', id: stored.body.id });
  const changed = await asAcme('POST', '/api/v1/apply', { docs: [doc('orders_flow', { steps: diamond().slice(0, 2), sensor: true, description: 'two steps' })] });
  t.match(changed.body.results[0], { action: 'patch', changes: ['spec.description', 'spec.steps'] });
  t.equal((await asAcme('GET', `/api/v1/pipelines/${stored.body.id}`)).body.steps.length, 2);
});

t.test('a Pipeline may name a Transform declared earlier in the same request', async (t) => {
  const { asAcme } = await pipelinesPlatform(t);
  const docs = [
    { apiVersion: API, kind: 'Transform', metadata: { name: 'north_orders' }, spec: { sql: "SELECT id, amount FROM raw.acme.orders WHERE region = 'north'" } },
    doc('north', { steps: [
      { id: 'north', transform_name: 'north_orders' },
      { id: 'sum', sql: 'SELECT sum(amount) AS total FROM derived.acme.north_orders', output: 'north_total', inputs: ['derived.acme.north_orders'] },
    ] }),
  ];
  const planned = await asAcme('POST', '/api/v1/apply/dry-run', { docs });
  t.same(planned.body.results.map((r: { kind: string; action: string }) => [r.kind, r.action]), [['Transform', 'create'], ['Pipeline', 'create']], JSON.stringify(planned.body.results));
  const alone = await asAcme('POST', '/api/v1/apply/dry-run', { docs: [docs[1]] });
  t.match(alone.body.results[0], { action: 'error', message: /north_orders/ }, 'without the Transform document the step names an unknown transform');
  const applied = await asAcme('POST', '/api/v1/apply', { docs });
  t.match(applied.body, { applied: true });
  const id = applied.body.results[1].id;
  t.same((await asAcme('POST', '/api/v1/pipelines/validate-dag', { pipeline_id: id })).body, { valid: true, errors: [], order: ['north', 'sum'] });
});

// DAG validation (validate-dag): cycles named by their steps,
// missing inputs, unknown and unreadable datasets, two steps writing one
// output, the topological order; through REST and the plugin's api.
import t from 'tap';
import { diamond, ORDERS, pipelinesPlatform } from './helpers.ts';

t.test('POST /pipelines/validate-dag against the lake; the api answers the same', async (t) => {
  const { tp, asAcme, asBeta } = await pipelinesPlatform(t);
  const valid = await asAcme('POST', '/api/v1/pipelines/validate-dag', { steps: diamond() });
  t.equal(valid.status, 200);
  t.same(valid.body, { valid: true, errors: [], order: ['clean', 'by_region', 'big', 'report'] });

  const steps = [
    { id: 'a', sql: 'SELECT 1 AS x', output: 'a_out', inputs: ['c', ORDERS] },
    { id: 'b', sql: 'SELECT 1 AS x', output: 'b_out', inputs: ['a'] },
    { id: 'c', sql: 'SELECT 1 AS x', output: 'c_out', inputs: ['b'] },
    { id: 'd', sql: 'SELECT 1 AS x', output: 'a_out', inputs: ['nowhere', 'raw.acme.missing'] },
    { id: 'e', sql: 'SELECT 1 AS x', output: 'e_out', inputs: ['raw.beta.secret'] },
  ];
  const invalid = await asAcme('POST', '/api/v1/pipelines/validate-dag', { steps });
  t.equal(invalid.status, 200);
  t.equal(invalid.body.valid, false);
  const byCode = (code: string) => invalid.body.errors.filter((e: { code: string }) => e.code === code).map((e: { steps: string[] }) => e.steps);
  t.same(byCode('DAG_CYCLE'), [['a', 'b', 'c']], 'the cycle named by its steps');
  t.same(byCode('DUPLICATE_OUTPUT'), [['a', 'd']]);
  t.same(byCode('MISSING_INPUT'), [['d']]);
  t.same(byCode('UNKNOWN_DATASET'), [['d']]);
  t.same(byCode('DATASET_NOT_READABLE'), [['e']], 'another tenant\'s raw dataset is not readable');
  t.same(invalid.body.order, ['d', 'e']);

  const api = tp.platform.server.plugins.pipelines.api;
  t.same(await api.validateDag('acme', steps), invalid.body, 'the api gives the REST answer');
  const malformed = await api.validateDag('acme', [{ id: 'x' }, 'nonsense']);
  t.same(malformed.errors.map((e) => e.code), ['STEP_INVALID', 'STEP_INVALID']);
  t.equal(malformed.valid, false);

  const empty = await asAcme('POST', '/api/v1/pipelines/validate-dag', { steps: [] });
  t.same(empty.body.errors.map((e: { code: string }) => e.code), ['EMPTY_PIPELINE']);
  const asOther = await asBeta('POST', '/api/v1/pipelines/validate-dag', { steps: diamond() });
  t.same(asOther.body.errors.map((e: { code: string; steps: string[] }) => [e.code, e.steps]), [['DATASET_NOT_READABLE', ['clean']], ['DATASET_NOT_READABLE', ['big']]],
    'beta reads neither acme\'s orders nor acme\'s derived outputs (its steps write derived.beta.*)');
  const bad = await asAcme('POST', '/api/v1/pipelines/validate-dag', { steps: [{ id: 'a', sql: 'SELECT 1' }] });
  t.equal(bad.status, 400, 'inline SQL without an output is refused by the schema');
});

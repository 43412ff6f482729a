// Runs: a sandbox run executes the whole DAG into the sandbox
// namespace with per-step results and never writes production datasets;
// activation follows it; a production run (POST /temporal/workflows/pipeline)
// runs steps in DAG order as pg-boss jobs, each output a derived snapshot,
// with pipeline.run.* events; a failing step skips what depends on it only.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { diamond, ORDERS, pipelinesPlatform } from './helpers.ts';

const terminal = (status: string) => ['succeeded', 'failed', 'cancelled'].includes(status);

t.test('sandbox run: per-step results, sandbox tables only, then activation and a production run', async (t) => {
  const { tp, acme, lake, asAcme, asBeta } = await pipelinesPlatform(t, { PIPELINES_SANDBOX_MAX_ROWS: '2' });
  await tp.platform.start();
  const id = (await asAcme('POST', '/api/v1/pipelines', { name: 'orders_flow', steps: diamond() })).body.id;
  const datasetsBefore = (await asAcme('GET', '/api/v1/datasets?limit=500')).body.items.map((d: { id: string }) => d.id).sort();

  const started = await asAcme('POST', `/api/v1/pipelines/${id}/sandbox`, {});
  t.equal(started.status, 202);
  t.match(started.body, { pipeline_id: id, version: 1, status: 'running' });
  const workflow = started.body.workflow_id;
  const status = await until(async () => {
    const read = await asAcme('GET', `/api/v1/pipelines/${id}/sandbox/${workflow}/status`);
    return terminal(read.body.status) && read.body;
  }, 'the sandbox run ends', 60_000);
  t.equal(status.status, 'succeeded', JSON.stringify(status.steps.map((s: { error: string }) => s.error)));
  t.same(status.steps.map((s: { step_id: string; status: string }) => [s.step_id, s.status]), [['clean', 'succeeded'], ['by_region', 'succeeded'], ['big', 'succeeded'], ['report', 'succeeded']]);
  const clean = status.steps[0];
  t.match(clean.output_dataset, /^sandbox\.acme\.sbx_[0-9a-f]{8}_orders_clean$/);
  t.equal(clean.rows, 2, 'capped by PIPELINES_SANDBOX_MAX_ROWS');
  t.same(clean.schema.map((c: { name: string }) => c.name), ['id', 'amount', 'region']);
  t.equal(clean.sample_rows.length, 2);
  t.ok(clean.duration_ms >= 0 && clean.sql_ms >= 0 && clean.started_at && clean.finished_at);
  t.same(status.steps[3].depends_on, ['by_region', 'big']);
  t.ok(status.steps[3].rows >= 1, 'the report read the sandbox outputs of earlier steps');

  // Production was never written: no derived dataset, the lake's registry unchanged but for sandbox tables.
  const datasetsAfter = (await asAcme('GET', '/api/v1/datasets?limit=500')).body.items.map((d: { id: string }) => d.id).sort();
  t.same(datasetsAfter.filter((d: string) => !d.startsWith('sandbox.')), datasetsBefore);
  t.notOk(datasetsAfter.some((d: string) => d.startsWith('derived.')), 'no derived dataset exists');
  await t.rejects(lake.readable('acme', 'derived.acme.orders_clean'), { output: { statusCode: 404 } } as never);

  t.equal((await asBeta('GET', `/api/v1/pipelines/${id}/sandbox/${workflow}/status`)).status, 404, 'another tenant\'s workflow id is 404');
  t.equal((await asAcme('GET', `/api/v1/temporal/workflows/${workflow}`)).body.workflow_type, 'pipeline-sandbox');

  // A second sandbox of an unchanged definition reuses version 1.
  t.equal((await asAcme('POST', `/api/v1/pipelines/${id}/sandbox`, {})).body.version, 1);
  await until(async () => (await asAcme('GET', `/api/v1/pipelines/${id}/runs?kind=sandbox`)).body.items.every((r: { status: string }) => terminal(r.status)), 'the second sandbox ends', 60_000);

  const activated = await asAcme('POST', `/api/v1/pipelines/${id}/activate`, {});
  t.equal(activated.status, 200, JSON.stringify(activated.body));
  t.match(activated.body, { state: 'active', active_version: 1 });

  const run = await asAcme('POST', '/api/v1/temporal/workflows/pipeline', { pipeline_id: id });
  t.equal(run.status, 202);
  t.equal(run.body.workflow_type, 'pipeline');
  const waited = await asAcme('POST', `/api/v1/temporal/workflows/${run.body.workflow_id}/wait`, { timeout_seconds: 60 });
  t.match(waited.body, { status: 'succeeded', timed_out: false });
  const steps = waited.body.result.steps;
  t.same(steps.map((s: { output_dataset: string }) => s.output_dataset), ['derived.acme.orders_clean', 'derived.acme.orders_by_region', 'derived.acme.orders_big', 'derived.acme.orders_report']);
  t.ok(steps.every((s: { snapshot_id_exact: string }) => /^\d+$/.test(s.snapshot_id_exact)), 'each output is a snapshot');
  t.equal(steps[0].rows, 3, 'production has no sandbox row cap');
  const report = await lake.readable('acme', 'derived.acme.orders_report');
  t.equal(report.latestSnapshotId, steps[3].snapshot_id_exact);
  t.equal(report.producer.kind, 'pipeline');
  const big = steps.find((s: { step_id: string }) => s.step_id === 'big');
  const byRegion = steps.find((s: { step_id: string }) => s.step_id === 'by_region');
  t.ok(new Date(big.started_at) >= new Date(steps[0].finished_at) && new Date(byRegion.started_at) >= new Date(steps[0].finished_at), 'dependents start after their input');

  const events = await asAcme('GET', '/api/admin/triggers/events/recent?type=pipeline.run.*&limit=10');
  t.same(events.body.items.map((e: { type: string }) => e.type).reverse(), ['pipeline.run.started', 'pipeline.run.completed']);
  t.match(events.body.items[0].data, { pipeline_id: id, run_id: run.body.workflow_id, version: 1, trigger: 'orchestrator', status: 'succeeded' });

  const runs = await asAcme('GET', `/api/v1/pipelines/${id}/runs`);
  t.same(runs.body.items.map((r: { kind: string }) => r.kind), ['production', 'sandbox', 'sandbox']);
  const graph = await tp.request({
    method: 'POST', url: '/graphql', token: acme.token, tenant: 'acme',
    payload: { query: `{ pipeline(id: "${id}") { name state activeVersion runs(filter: { kind: PRODUCTION }) { edges { node { status trigger steps { stepId status snapshotId rows } } } totalCount } } }` },
  });
  t.same(graph.body.data.pipeline.runs.edges[0].node.steps.map((s: { stepId: string; snapshotId: string }) => [s.stepId, s.snapshotId]),
    steps.map((s: { step_id: string; snapshot_id_exact: string }) => [s.step_id, s.snapshot_id_exact]), 'GraphQL: the run with its step results');
  t.match(graph.body.data.pipeline, { state: 'ACTIVE', activeVersion: 1, runs: { totalCount: 1 } });

  const gql = (query: string, variables: Record<string, unknown> = {}) =>
    tp.request({ method: 'POST', url: '/graphql', token: acme.token, tenant: 'acme', payload: { query, variables } });
  // One query: a run with its pipeline and its steps' statuses, outputs and timings.
  const RUN = `query($id: ID!) { pipelineRun(id: $id) { id status kind durationMs pipeline { id name }
    steps { stepId status dependsOn outputDataset snapshotId snapshot { id rowCount } rows startedAt finishedAt durationMs sqlMs } } }`;
  const one = await gql(RUN, { id: run.body.workflow_id });
  t.notOk(one.body.errors, JSON.stringify(one.body.errors));
  t.match(one.body.data.pipelineRun, { id: run.body.workflow_id, status: 'SUCCEEDED', kind: 'PRODUCTION', pipeline: { id, name: 'orders_flow' } });
  t.same(one.body.data.pipelineRun.steps.map((s: { stepId: string; status: string }) => [s.stepId, s.status]), steps.map((s: { step_id: string }) => [s.step_id, 'SUCCEEDED']));
  t.same(one.body.data.pipelineRun.steps.map((s: { snapshot: { id: string; rowCount: number } }) => s.snapshot),
    steps.map((s: { snapshot_id_exact: string; rows: number }) => ({ id: s.snapshot_id_exact, rowCount: s.rows })), 'each step\'s snapshot, read from the lake');
  t.ok(one.body.data.pipelineRun.durationMs >= 0 && one.body.data.pipelineRun.steps.every((s: { durationMs: number }) => s.durationMs >= 0));

  // runPipeline: the REST twin's service and errors; it answers the run it started.
  const rerun = await gql(`mutation { runPipeline(pipelineId: "${id}") { id status trigger kind pipeline { id } } }`);
  t.notOk(rerun.body.errors, JSON.stringify(rerun.body.errors));
  t.match(rerun.body.data.runPipeline, { status: 'RUNNING', trigger: 'ORCHESTRATOR', kind: 'PRODUCTION', pipeline: { id } });
  const busy = await gql(`mutation { runPipeline(pipelineId: "${id}") { id } }`);
  const code = busy.body.errors?.[0]?.extensions?.code;
  t.ok(code === 'RUN_IN_PROGRESS' || busy.body.data?.runPipeline, `a second run while one is live is refused with the REST code (${code})`);
  t.match((await gql('mutation { runPipeline(pipelineId: "nope") { id } }')).body.errors, [{ extensions: { code: 'BAD_USER_INPUT' } }]);
  await until(async () => (await asAcme('GET', `/api/v1/pipelines/${id}/runs`)).body.items.every((r: { status: string }) => terminal(r.status)), 'the runs end', 60_000);

  // Runs page backwards: last alone is the oldest run (the first sandbox).
  const BACK = `query($before: String) { pipelineRuns(filter: { pipelineId: "${id}" }, last: 2, before: $before) {
    edges { node { id kind } } pageInfo { hasPreviousPage startCursor } totalCount } }`;
  const end = await gql(BACK);
  t.notOk(end.body.errors, JSON.stringify(end.body.errors));
  const all = (await asAcme('GET', `/api/v1/pipelines/${id}/runs?limit=50`)).body.items.map((r: { id: string }) => r.id);
  t.equal(end.body.data.pipelineRuns.totalCount, all.length);
  t.same(end.body.data.pipelineRuns.edges.map((e: { node: { id: string } }) => e.node.id), all.slice(-2), 'the two oldest, in list order');
  const before = await gql(BACK, { before: end.body.data.pipelineRuns.pageInfo.startCursor });
  t.same(before.body.data.pipelineRuns.edges.map((e: { node: { id: string } }) => e.node.id), all.slice(-4, -2), 'the page before');
});

t.test('a failing step fails the run and skips only what depends on it; activation refuses a failed sandbox', async (t) => {
  const { tp, asAcme } = await pipelinesPlatform(t);
  await tp.platform.start();
  const steps = [
    { id: 'ok', sql: 'SELECT id FROM raw.acme.orders', output: 'ok_out', inputs: [ORDERS] },
    { id: 'boom', sql: 'SELECT id, 1 / (id - id) AS x FROM raw.acme.orders', output: 'boom_out', inputs: [ORDERS] },
    { id: 'after', sql: 'SELECT x FROM derived.acme.boom_out', output: 'after_out', inputs: ['boom'] },
  ];
  const id = (await asAcme('POST', '/api/v1/pipelines', { name: 'breaks', steps })).body.id;
  const workflow = (await asAcme('POST', `/api/v1/pipelines/${id}/sandbox`, {})).body.workflow_id;
  const status = await until(async () => {
    const read = await asAcme('GET', `/api/v1/pipelines/${id}/sandbox/${workflow}/status`);
    return terminal(read.body.status) && read.body;
  }, 'the sandbox run ends', 60_000);
  t.equal(status.status, 'failed');
  t.same(status.steps.map((s: { step_id: string; status: string }) => [s.step_id, s.status]), [['ok', 'succeeded'], ['boom', 'failed'], ['after', 'skipped']]);
  t.match(status.steps[1].error, /division by zero/);
  t.equal((await asAcme('POST', `/api/v1/pipelines/${id}/activate`, {})).body.code, 'SANDBOX_REQUIRED');
});

t.test('a step naming a transform runs its SQL; available-transforms lists them', async (t) => {
  const { tp, asAcme, asBeta } = await pipelinesPlatform(t);
  await tp.platform.start();
  const transform = await asAcme('POST', '/api/v1/transforms', { name: 'north_orders', sql: "SELECT id, amount FROM raw.acme.orders WHERE region = 'north'" });
  t.equal(transform.status, 201, JSON.stringify(transform.body));
  const available = await asAcme('GET', '/api/v1/pipelines/available-transforms');
  t.equal(available.status, 200);
  t.match(available.body.items, [{ id: transform.body.id, name: 'north_orders', output_dataset: 'derived.acme.north_orders', inputs: [ORDERS] }]);
  t.equal((await asBeta('GET', '/api/v1/pipelines/available-transforms')).body.total, 0, 'another tenant sees none');
  const other = (await asAcme('POST', '/api/v1/transforms', { name: 'all_orders', sql: 'SELECT id FROM raw.acme.orders' })).body.id;
  const firstPage = (await asAcme('GET', '/api/v1/pipelines/available-transforms?limit=1')).body;
  t.match(firstPage, { total: 2, limit: 1 });
  t.equal(firstPage.items.length, 1);
  t.type(firstPage.next, 'string', 'a next cursor while more remain');
  const secondPage = (await asAcme('GET', `/api/v1/pipelines/available-transforms?limit=1&after=${firstPage.next}`)).body;
  t.same([firstPage.items[0].id, secondPage.items[0].id].sort(), [transform.body.id, other].sort(), 'the two pages hold both transforms, once each');
  t.equal(secondPage.next, null, 'the last page');
  t.equal((await asAcme('GET', '/api/v1/pipelines/available-transforms?after=nope')).status, 400);
  await asAcme('DELETE', `/api/v1/transforms/${other}`);

  const steps = [
    { id: 'north', transform_name: 'north_orders' },
    { id: 'sum', sql: 'SELECT sum(amount) AS total FROM derived.acme.north_orders', output: 'north_total', inputs: ['north'] },
  ];
  const validation = await asAcme('POST', '/api/v1/pipelines/validate-dag', { steps });
  t.same(validation.body, { valid: true, errors: [], order: ['north', 'sum'] }, 'the transform\'s inputs and output resolve the edges');
  t.equal((await asAcme('POST', '/api/v1/pipelines/validate-dag', { steps: [{ id: 'x', transform_name: 'nope' }] })).body.errors[0].code, 'UNKNOWN_TRANSFORM');
  const id = (await asAcme('POST', '/api/v1/pipelines', { name: 'north', steps })).body.id;
  t.equal((await asAcme('POST', `/api/v1/pipelines/${id}/activate`, { force: true })).status, 200);
  const run = (await asAcme('POST', '/api/v1/temporal/workflows/pipeline', { pipeline_id: id })).body.workflow_id;
  const done = await asAcme('POST', `/api/v1/temporal/workflows/${run}/wait`, { timeout_seconds: 60 });
  t.equal(done.body.status, 'succeeded', JSON.stringify(done.body.result.steps));
  t.same(done.body.result.steps.map((s: { rows: number }) => s.rows), [2, 1]);
  const started = await asAcme('POST', '/api/v1/temporal/workflows/transform', { transform_id: transform.body.id });
  t.equal(started.status, 202);
  t.match(started.body, { workflow_type: 'transform', status: 'running' });
  const followed = await asAcme('POST', `/api/v1/temporal/workflows/${started.body.workflow_id}/wait`, { timeout_seconds: 60 });
  t.match(followed.body, { status: 'succeeded', is_terminal: true, result: { transform_id: transform.body.id, transform_run: { status: 'succeeded', rows: 2 } } }, 'the workflow follows its transform run');
  t.equal((await asAcme('GET', `/api/v1/temporal/workflows/${started.body.workflow_id}`)).body.status, 'succeeded', 'and keeps its end');
  t.equal((await asAcme('POST', `/api/v1/temporal/workflows/${started.body.workflow_id}/cancel`)).body.code, 'WORKFLOW_TERMINAL');
  t.equal((await asBeta('GET', `/api/v1/temporal/workflows/${started.body.workflow_id}`)).status, 404);
});

t.test('wait times out on a running workflow; cancel stops its running statement and its pending steps', async (t) => {
  const { tp, asAcme, asBeta } = await pipelinesPlatform(t);
  await tp.platform.start();
  const steps = [
    { id: 'slow', sql: 'SELECT count(*) AS n FROM generate_series(1, 40000) a, generate_series(1, 40000) b', output: 'slow_out', inputs: [] },
    { id: 'next', sql: 'SELECT n FROM derived.acme.slow_out', output: 'next_out', inputs: ['slow'] },
  ];
  const id = (await asAcme('POST', '/api/v1/pipelines', { name: 'slow', steps })).body.id;
  await asAcme('POST', `/api/v1/pipelines/${id}/activate`, { force: true });
  const run = (await asAcme('POST', '/api/v1/temporal/workflows/pipeline', { pipeline_id: id })).body.workflow_id;
  t.equal((await asAcme('POST', '/api/v1/temporal/workflows/pipeline', { pipeline_id: id })).body.code, 'RUN_IN_PROGRESS', 'one live run per pipeline');
  await until(async () => (await asAcme('GET', `/api/v1/temporal/workflows/${run}`)).body.result.steps[0].status === 'running', 'the slow step runs');
  const waited = await asAcme('POST', `/api/v1/temporal/workflows/${run}/wait`, { timeout_seconds: 0.3 });
  t.match(waited.body, { status: 'running', is_terminal: false, timed_out: true });
  t.equal((await asBeta('POST', `/api/v1/temporal/workflows/${run}/cancel`)).status, 404, 'another tenant cannot cancel it');
  const cancelled = await asAcme('POST', `/api/v1/temporal/workflows/${run}/cancel`);
  t.match(cancelled.body, { status: 'cancelled', is_terminal: true });
  const settled = await until(async () => {
    const read = (await asAcme('GET', `/api/v1/temporal/workflows/${run}`)).body;
    return read.result.steps[0].status !== 'running' && read;
  }, 'the running statement stops', 20_000);
  t.same(settled.result.steps.map((s: { status: string }) => s.status), ['cancelled', 'cancelled'], 'the stopped step ends cancelled, not failed');
  t.equal(settled.result.steps[0].error, 'cancelled');
  const events = await asAcme('GET', '/api/admin/triggers/events/recent?type=pipeline.run.*&limit=10');
  t.same(events.body.items.map((e: { type: string }) => e.type), ['pipeline.run.failed', 'pipeline.run.started']);
  t.match(events.body.items[0].data, { run_id: run, status: 'cancelled' });
});

t.test('sandbox: references to earlier outputs in any spelling (quoted, unquoted, upper case) read the sandbox copies', async (t) => {
  const { tp, asAcme } = await pipelinesPlatform(t, { PIPELINES_SANDBOX_MAX_ROWS: '2' });
  await tp.platform.start();
  const steps = [
    { id: 'base', sql: 'SELECT id, amount FROM raw.acme.orders ORDER BY id', output: 'spell_base', inputs: [ORDERS] },
    { id: 'quoted', sql: 'SELECT count(*) AS n FROM "derived"."acme"."spell_base"', output: 'spell_quoted', inputs: ['base'] },
    { id: 'mixed', sql: 'SELECT b.id FROM DERIVED.acme."spell_base" b JOIN derived.acme.spell_base c ON c.id = b.id', output: 'spell_mixed', inputs: ['base'] },
  ];
  const id = (await asAcme('POST', '/api/v1/pipelines', { name: 'spellings', steps })).body.id;
  const workflow = (await asAcme('POST', `/api/v1/pipelines/${id}/sandbox`, {})).body.workflow_id;
  const status = await until(async () => {
    const read = await asAcme('GET', `/api/v1/pipelines/${id}/sandbox/${workflow}/status`);
    return terminal(read.body.status) && read.body;
  }, 'the sandbox run ends', 60_000);
  t.equal(status.status, 'succeeded', JSON.stringify(status.steps.map((s: { error: string }) => s.error)));
  t.same(status.steps[1].sample_rows, [{ n: 2 }], 'the quoted reference read the sandbox copy (2 rows), not production (which does not exist)');
  t.equal(status.steps[2].rows, 2, 'upper-case and mixed quoting too');
  t.equal((await asAcme('GET', '/api/v1/datasets/derived.acme.spell_base')).status, 404, 'production never written');
});

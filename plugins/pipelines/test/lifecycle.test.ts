// Pipelines: CRUD, step patches, immutable versions,
// activation only after a succeeded sandbox run unless forced, pause; the
// tenant rules (another tenant's pipeline is 404) and roles (members read,
// editors change).
import t from 'tap';
import { runCli } from 'agent-platform/sdk/testing';
import { diamond, ORDERS, pipelinesPlatform, userToken } from './helpers.ts';

t.test('create, read, update, patch a step, version, delete', async (t) => {
  const { asAcme, asBeta } = await pipelinesPlatform(t);
  const created = await asAcme('POST', '/api/v1/pipelines', { name: 'orders_flow', description: 'orders', steps: diamond(), schedule: { cron: '0 3 * * *', timezone: 'Europe/Lisbon' } });
  t.equal(created.status, 201);
  t.match(created.body, { name: 'orders_flow', state: 'draft', schedule: { cron: '0 3 * * *', timezone: 'Europe/Lisbon' }, sensor: false, active_version: null, latest_version: null });
  t.equal(created.body.steps.length, 4);
  const id = created.body.id;

  t.equal((await asAcme('POST', '/api/v1/pipelines', { name: 'orders_flow' })).body.code, 'PIPELINE_EXISTS');
  t.equal((await asAcme('POST', '/api/v1/pipelines', { name: 'x', schedule: { cron: 'not cron' } })).body.code, 'SCHEDULE_INVALID');
  t.equal((await asAcme('POST', '/api/v1/pipelines', { name: 'dups', steps: [diamond()[0], diamond()[0]] })).body.code, 'DUPLICATE_STEP');

  const list = await asAcme('GET', '/api/v1/pipelines');
  t.same(list.body.items.map((p: { id: string }) => p.id), [id]);
  t.equal((await asBeta('GET', `/api/v1/pipelines/${id}`)).status, 404, 'another tenant\'s pipeline is 404');
  t.equal((await asBeta('GET', '/api/v1/pipelines')).body.total, 0);

  const validated = await asAcme('POST', '/api/v1/pipelines/validate-dag', { pipeline_id: id });
  t.equal(validated.body.valid, true);
  t.equal((await asAcme('GET', `/api/v1/pipelines/${id}`)).body.state, 'validated');

  const patched = await asAcme('PATCH', `/api/v1/pipelines/${id}/steps/big`, { sql: 'SELECT id, amount FROM derived.acme.orders_clean WHERE amount > 100' });
  t.equal(patched.status, 200);
  t.match(patched.body.steps.find((s: { id: string }) => s.id === 'big'), { sql: /amount > 100/, output: 'orders_big', inputs: ['derived.acme.orders_clean'] });
  t.equal(patched.body.state, 'draft', 'an edit makes a validated pipeline a draft again');
  t.equal((await asAcme('PATCH', `/api/v1/pipelines/${id}/steps/nope`, { name: 'x' })).body.code, 'STEP_NOT_FOUND');
  const emptied = await asAcme('PATCH', `/api/v1/pipelines/${id}/steps/big`, { sql: null });
  t.equal(emptied.status, 400, 'a step left without SQL is refused');
  t.equal(emptied.body.code, 'STEP_INVALID');

  const v1 = await asAcme('POST', `/api/v1/pipelines/${id}/versions`, { note: 'first' });
  t.equal(v1.status, 201);
  t.match(v1.body, { version: 1, note: 'first' });
  await asAcme('PUT', `/api/v1/pipelines/${id}`, { description: 'changed', steps: diamond().slice(0, 2) });
  const v2 = await asAcme('POST', `/api/v1/pipelines/${id}/versions`, {});
  t.equal(v2.body.version, 2);
  const versions = await asAcme('GET', `/api/v1/pipelines/${id}/versions`);
  t.same(versions.body.map((v: { version: number; steps: unknown[] }) => [v.version, v.steps.length]), [[2, 2], [1, 4]], 'version 1 still holds the definition it snapshotted');
  t.equal(versions.body[1].steps.find((s: { id: string }) => s.id === 'big').sql, 'SELECT id, amount FROM derived.acme.orders_clean WHERE amount > 100');

  await asAcme('PUT', `/api/v1/pipelines/${id}`, { steps: [{ id: 'bad', sql: 'SELECT 1 AS x', output: 'bad', inputs: ['raw.acme.nothing'] }] });
  const refused = await asAcme('POST', `/api/v1/pipelines/${id}/versions`, {});
  t.equal(refused.status, 400);
  t.equal(refused.body.code, 'DAG_INVALID');
  t.same(refused.body.errors.map((e: { code: string }) => e.code), ['UNKNOWN_DATASET']);
  t.equal((await asAcme('GET', `/api/v1/pipelines/${id}/versions`)).body.length, 2, 'no version of an invalid DAG');

  t.equal((await asBeta('DELETE', `/api/v1/pipelines/${id}`)).status, 404);
  t.equal((await asAcme('DELETE', `/api/v1/pipelines/${id}`)).status, 204);
  t.equal((await asAcme('GET', `/api/v1/pipelines/${id}`)).status, 404);
});

t.test('activation needs a succeeded sandbox run of the version unless forced; pause; the CLI lists', async (t) => {
  const { tp, asAcme } = await pipelinesPlatform(t);
  const id = (await asAcme('POST', '/api/v1/pipelines', { name: 'p', steps: diamond().slice(0, 1), schedule: { cron: '*/5 * * * *' } })).body.id;
  t.equal((await asAcme('POST', `/api/v1/pipelines/${id}/activate`, {})).body.code, 'SANDBOX_REQUIRED');
  t.same((await asAcme('GET', `/api/v1/pipelines/${id}/versions`)).body, [], 'a refused activation versions nothing');
  await asAcme('POST', `/api/v1/pipelines/${id}/versions`, {});
  const refused = await asAcme('POST', `/api/v1/pipelines/${id}/activate`, {});
  t.equal(refused.status, 409);
  t.equal(refused.body.code, 'SANDBOX_REQUIRED');
  t.equal((await asAcme('POST', `/api/v1/pipelines/${id}/activate`, { version: 7, force: true })).body.code, 'VERSION_NOT_FOUND');
  const forced = await asAcme('POST', `/api/v1/pipelines/${id}/activate`, { force: true });
  t.equal(forced.status, 200);
  t.match(forced.body, { state: 'active', active_version: 1 });
  t.ok(forced.body.next_run_at, 'the schedule is armed');
  t.ok(new Date(forced.body.next_run_at).getTime() > Date.now());
  const paused = await asAcme('POST', `/api/v1/pipelines/${id}/pause`);
  t.match(paused.body, { state: 'paused', next_run_at: null });
  t.equal((await asAcme('POST', `/api/v1/pipelines/${id}/pause`)).body.code, 'PIPELINE_NOT_ACTIVE');
  const runs = await asAcme('GET', `/api/v1/pipelines/${id}/runs`);
  t.same(runs.body, { items: [], total: 0, limit: 100, offset: 0 });

  const cli = await runCli(['pipelines', 'list', '--tenant', 'acme', '--json'], { platform: tp });
  t.equal(cli.code, 0, cli.stderr);
  t.match(cli.json.items, [{ id, name: 'p', state: 'paused', active_version: 1 }], 'the CLI lists them as the API does');
  t.equal((await runCli(['pipelines', 'list', '--tenant', 'beta', '--json'], { platform: tp })).json.total, 0);
});

t.test('members read, editors (admin or pipeline_editor) change', async (t) => {
  const { tp, asAcme } = await pipelinesPlatform(t);
  const member = await userToken(tp, 'reader', ['acme']);
  const editor = await userToken(tp, 'editor', ['acme'], ['pipeline_editor']);
  const id = (await asAcme('POST', '/api/v1/pipelines', { name: 'p', steps: diamond().slice(0, 1) })).body.id;
  const asMember = (method: string, url: string, payload?: unknown) => tp.request({ method, url, token: member, tenant: 'acme', payload });
  t.equal((await asMember('GET', `/api/v1/pipelines/${id}`)).status, 200);
  t.equal((await asMember('POST', '/api/v1/pipelines/validate-dag', { steps: diamond() })).status, 200);
  t.equal((await asMember('POST', '/api/v1/pipelines', { name: 'q' })).status, 403);
  t.equal((await asMember('POST', `/api/v1/pipelines/${id}/sandbox`, {})).status, 403);
  t.equal((await asMember('DELETE', `/api/v1/pipelines/${id}`)).status, 403);
  const byEditor = await tp.request({ method: 'POST', url: '/api/v1/pipelines', token: editor, tenant: 'acme', payload: { name: 'q', steps: [{ id: 's', sql: 'SELECT id FROM raw.acme.orders', output: 'q_out', inputs: [ORDERS] }] } });
  t.equal(byEditor.status, 201);
  t.equal((await tp.request({ url: '/api/v1/pipelines', token: member })).body.code, 'TENANT_REQUIRED');
});

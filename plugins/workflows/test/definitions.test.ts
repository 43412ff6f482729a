// Workflow definitions over REST: create, read, list, update, delete; engine
// validation errors that name every bad step; definition.* events; roles.
import t from 'tap';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import { memberOf, recordedEvents, startWorkflowsPlatform, waitStep } from './helpers.ts';

const steps = [
  { id: 'greet', type: 'ACTION', handler: 'log', arguments: { message: 'hello {{inputs.name}}' }, output_key: 'greeting' },
  waitStep('approval', { event_type: 'approval.granted', timeout_seconds: 30, output_key: 'approval' }),
];

t.test('definitions: CRUD with versions and definition.* events', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-defs');

  const created = await tp.request({ method: 'POST', url: '/api/admin/workflows', token: a.token, payload: { name: 'onboard', description: 'Onboarding', steps } });
  t.equal(created.status, 201);
  t.match(created.body, { name: 'onboard', description: 'Onboarding', steps, version: 1 });
  t.ok(created.body.created_at && created.body.updated_at);

  const duplicate = await tp.request({ method: 'POST', url: '/api/admin/workflows', token: a.token, payload: { name: 'onboard', steps } });
  t.equal(duplicate.status, 409);
  t.equal(duplicate.body.code, 'WORKFLOW_EXISTS');

  await tp.request({ method: 'POST', url: '/api/admin/workflows', token: a.token, payload: { name: 'a-first', steps } });
  const list = await tp.request({ url: '/api/admin/workflows?limit=1', token: a.token });
  t.equal(list.status, 200);
  t.equal(list.body.total, 2);
  t.same(list.body.items.map((w: { name: string }) => w.name), ['a-first'], 'ordered by name, paged');
  t.match(list.body, { skip: 0, limit: 1 });

  const read = await tp.request({ url: '/api/admin/workflows/onboard', token: a.token });
  t.equal(read.status, 200);
  t.same(read.body.steps, steps);

  const newSteps = [steps[0]];
  const updated = await tp.request({ method: 'PUT', url: '/api/admin/workflows/onboard', token: a.token, payload: { steps: newSteps } });
  t.equal(updated.status, 200);
  t.match(updated.body, { name: 'onboard', description: 'Onboarding', version: 2 }, 'description kept, version up');
  t.same(updated.body.steps, newSteps);

  const both = await tp.request({
    method: 'PUT', url: '/api/admin/workflows/onboard', token: a.token, payload: { name: 'onboard', description: 'New', steps },
  });
  t.equal(both.body.version, 3);

  const unchanged = await tp.request({ method: 'PUT', url: '/api/admin/workflows/onboard', token: a.token, payload: { description: 'New' } });
  t.equal(unchanged.status, 200);
  t.equal(unchanged.body.version, 3, 'an update that changes nothing keeps the version');

  const rename = await tp.request({ method: 'PUT', url: '/api/admin/workflows/onboard', token: a.token, payload: { name: 'other', steps } });
  t.equal(rename.status, 400);
  t.equal(rename.body.code, 'RENAME_NOT_ALLOWED');

  const deleted = await tp.request({ method: 'DELETE', url: '/api/admin/workflows/onboard', token: a.token });
  t.equal(deleted.status, 204);
  t.equal((await tp.request({ url: '/api/admin/workflows/onboard', token: a.token })).status, 404);
  const again = await tp.request({ method: 'DELETE', url: '/api/admin/workflows/onboard', token: a.token });
  t.equal(again.status, 404);
  t.equal(again.body.code, 'WORKFLOW_NOT_FOUND');

  const events = (await recordedEvents(tp, { tenant: 'wf-defs' })).filter((e) => e.type.startsWith('definition.'));
  t.same(
    events.map((e) => [e.type, e.data]),
    [
      ['definition.created', { definition_type: 'workflow', name: 'onboard', version: 1 }],
      ['definition.created', { definition_type: 'workflow', name: 'a-first', version: 1 }],
      ['definition.updated', { definition_type: 'workflow', name: 'onboard', version: 2, changed_fields: ['steps'] }],
      ['definition.updated', { definition_type: 'workflow', name: 'onboard', version: 3, changed_fields: ['description', 'steps'] }],
      ['definition.deleted', { definition_type: 'workflow', name: 'onboard', version: 3 }],
    ],
    'one event per change, none for the conflict, the no-op update or the failed delete',
  );
  t.ok(events.every((e) => e.source === '/workflows'));
});

t.test('definitions: invalid steps are refused with every error naming its step', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-invalid');
  const bad = await tp.request({
    method: 'POST', url: '/api/admin/workflows', token: a.token,
    payload: {
      name: 'broken',
      steps: [
        { id: 'check', type: 'CONDITION', condition: { field: 'inputs.n', operator: 'almost', value: 1 }, then_step: 'nowhere' },
        waitStep('hold', { handler: 'temporal:sleep', timeout_seconds: 0 }),
        { id: 'act', type: 'ACTION', handler: 'Not A Name', arguments: { x: '{{ bad path }}' } },
        { id: 'act', type: 'ACTION', handler: 'log' },
      ],
    },
  });
  t.equal(bad.status, 400);
  t.equal(bad.body.code, 'INVALID_DEFINITION');
  const errors: string[] = bad.body.errors;
  t.ok(errors.length >= 6, `every problem is listed (${errors.length})`);
  for (const [step, what] of [
    ['check', 'operator'], ['check', 'then_step'], ['hold', 'handler'], ['hold', 'timeout_seconds'], ['act', 'handler'], ['act', 'used twice'],
  ]) {
    t.ok(errors.some((e) => e.includes(`"${step}"`) && e.includes(what)), `an error names step ${step} (${what})`);
  }
  t.match(bad.body.message, /step "check"/, 'the message lists them too');
  t.equal((await tp.request({ url: '/api/admin/workflows/broken', token: a.token })).status, 404, 'nothing was stored');

  const badUpdate = await tp.request({ method: 'POST', url: '/api/admin/workflows', token: a.token, payload: { name: 'fine', steps: [{ id: 'x', type: 'ACTION', handler: 'log' }] } });
  t.equal(badUpdate.status, 201);
  const put = await tp.request({ method: 'PUT', url: '/api/admin/workflows/fine', token: a.token, payload: { steps: [{ id: 'x', type: 'LOOP' }] } });
  t.equal(put.status, 400);
  t.match(put.body.errors, [/step "x": type must be/]);
  t.equal((await tp.request({ url: '/api/admin/workflows/fine', token: a.token })).body.version, 1, 'the refused update changed nothing');

  for (const payload of [
    { name: 'Upper Case', steps: [{ id: 'x', type: 'ACTION', handler: 'log' }] },
    { name: 'no-steps', steps: [] },
    { name: 'extra', steps: [{ id: 'x', type: 'ACTION', handler: 'log' }], owner: 'me' },
  ]) {
    const refused = await tp.request({ method: 'POST', url: '/api/admin/workflows', token: a.token, payload });
    t.equal(refused.status, 400, `refused: ${JSON.stringify(payload)}`);
    t.equal(refused.body.code, 'VALIDATION_FAILED');
  }
  const events = await recordedEvents(tp, { tenant: 'wf-invalid' });
  t.same(events.map((e) => e.type), ['definition.created'], 'only the valid definition was announced');
});

t.test('definitions: only admins read and write; tenants do not see each other\'s', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-roles-a');
  const b = await tenantWithAdmin(tp, 'wf-roles-b');
  const member = await memberOf(tp, 'wf-roles-a');
  t.equal((await tp.request({ method: 'POST', url: '/api/admin/workflows', token: a.token, payload: { name: 'mine', steps } })).status, 201);

  const write = await tp.request({ method: 'POST', url: '/api/admin/workflows', token: member, payload: { name: 'theirs', steps } });
  t.equal(write.status, 403);
  t.equal(write.body.code, 'ROLE_REQUIRED');
  t.equal((await tp.request({ method: 'DELETE', url: '/api/admin/workflows/mine', token: member })).status, 403);
  t.equal((await tp.request({ method: 'POST', url: '/api/admin/workflows/mine/execute', token: member, payload: {} })).status, 403);
  t.equal((await tp.request({ url: '/api/admin/workflows/mine', token: member })).status, 403, 'a member does not read definitions either');
  t.equal((await tp.request({ url: '/api/admin/executions', token: member })).status, 403, 'nor executions (their contexts hold other users\' data)');

  t.equal((await tp.request({ url: '/api/admin/workflows/mine', token: b.token })).status, 404, 'another tenant does not see it');
  t.equal((await tp.request({ url: '/api/admin/workflows', token: b.token })).body.total, 0);
  t.equal((await tp.request({ method: 'POST', url: '/api/admin/workflows', token: b.token, payload: { name: 'mine', steps } })).status, 201, 'names are per tenant');
  t.equal((await tp.request({ url: '/api/admin/workflows' })).status, 401, 'no token, no access');
});

t.test('the workflows routes are in the OpenAPI document', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const docs = await tp.request({ url: '/docs/openapi.json' });
  t.equal(docs.status, 200);
  const paths = Object.keys(docs.body.paths ?? {});
  for (const path of [
    '/api/admin/workflows', '/api/admin/workflows/{name}', '/api/admin/workflows/{name}/execute', '/api/admin/executions',
    '/api/admin/executions/{id}', '/api/admin/executions/{workflow_id}/pending-events', '/api/admin/executions/{id}/cancel',
  ]) {
    t.ok(paths.includes(path), `${path} is documented`);
  }
  t.ok(docs.body.paths['/api/admin/workflows/{name}/execute'].post, 'with its method');
});

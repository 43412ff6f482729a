import t from 'tap';
import { startTestPlatform, tenantWithAdmin } from '../harness.ts';
import { FunctionRegistry } from '../../core/functions/registry.ts';

t.test('functions are listed and called in the caller\'s tenant with validated arguments', async (t) => {
  const tp = await startTestPlatform(t);
  const a = await tenantWithAdmin(tp, 'fn-a');
  const b = await tenantWithAdmin(tp, 'fn-b');
  await tp.request({ method: 'POST', url: '/api/admin/clients', token: a.token, payload: { name: 'only-in-a' } });

  const listed = await tp.request({ url: '/api/admin/functions', token: a.token });
  t.equal(listed.status, 200);
  const listClients = listed.body.items.find((fn: { name: string }) => fn.name === 'list_clients');
  t.equal(listClients.source, 'platform');
  t.equal(listClients.parameters.properties.limit.type, 'integer');

  const callAs = (token: string, name: string, args: unknown) =>
    tp.request({ method: 'POST', url: `/api/admin/functions/${name}/call`, token, payload: { arguments: args } });

  const inA = await callAs(a.token, 'list_clients', {});
  t.equal(inA.status, 200);
  t.same(inA.body.result.items.map((c: { name: string }) => c.name), ['only-in-a']);
  const inB = await callAs(b.token, 'list_clients', {});
  t.same(inB.body.result.items, [], 'the call runs in the caller\'s tenant');

  const wrongType = await callAs(a.token, 'list_clients', { limit: 'ten' });
  t.equal(wrongType.status, 400);
  t.equal(wrongType.body.code, 'INVALID_ARGUMENTS');
  t.match(wrongType.body.message, /argument "limit" must be integer/);
  const extra = await callAs(a.token, 'list_clients', { bogus: 1 });
  t.equal(extra.status, 400);
  t.match(extra.body.message, /argument "bogus" is not allowed/);
  const unknown = await callAs(a.token, 'no_such_function', {});
  t.equal(unknown.status, 404);
  t.equal(unknown.body.code, 'FUNCTION_NOT_FOUND');
});

t.test('the registry enforces snake_case names, unique names, and asks providers', async (t) => {
  const registry = new FunctionRegistry();
  t.throws(() => registry.register('ResolveCitation', { description: '', parameters: {}, handler: async () => 1 }), /snake_case/);
  registry.register('echo_back', {
    description: 'Echo',
    parameters: { properties: { text: { type: 'string' } }, required: ['text'] },
    handler: async (args) => args.text,
  });
  t.throws(() => registry.register('echo_back', { description: '', parameters: {}, handler: async () => 1 }), /already registered/);
  registry.addProvider({
    name: 'imported',
    list: async (tenantId) => (tenantId === 'acme' ? [{ name: 'acme_get_pet', description: 'Pet', parameters: {}, source: 'petstore' }] : []),
    get: async (tenantId, name) =>
      tenantId === 'acme' && name === 'acme_get_pet'
        ? { description: 'Pet', parameters: { properties: { id: { type: 'integer' } }, required: ['id'] }, source: 'petstore', handler: async (args) => ({ pet: args.id }) }
        : undefined,
  });
  const context = (tenantId: string) => ({ tenantId, principal: { kind: 'service', sub: 's' } as const, withTenant: null as never, logger: null as never });
  t.same((await registry.list('acme')).map((f) => f.name), ['acme_get_pet', 'echo_back']);
  t.same((await registry.list('other')).map((f) => f.name), ['echo_back']);
  t.same(await registry.call('acme_get_pet', { id: 7 }, context('acme')), { pet: 7 });
  await t.rejects(registry.call('acme_get_pet', { id: 7 }, context('other')), /Function not found/);
  await t.rejects(registry.call('echo_back', {}, context('acme')), /argument "text" is required/);
});

t.test('observers see every successful call with its context, and a failing observer fails the call', async (t) => {
  const registry = new FunctionRegistry();
  registry.register('double', {
    description: 'Doubles',
    parameters: { properties: { n: { type: 'number' } }, required: ['n'] },
    handler: async (args) => ({ value: args.n * 2 }),
  });
  const seen: unknown[] = [];
  registry.observe(async ({ name, args, result, context }) => {
    seen.push({ name, args, result, caller: context.executionContext });
    if (args.n === 13) throw new Error('observer refused');
  });
  const context = { tenantId: 'acme', principal: { kind: 'service', sub: 's' } as const, withTenant: null as never, logger: null as never,
    executionContext: { type: 'chat_session', id: 's-1' } };
  t.same(await registry.call('double', { n: 2 }, context), { value: 4 });
  await t.rejects(registry.call('double', {}, context), /argument "n" is required/);
  await t.rejects(registry.call('double', { n: 13 }, context), /observer refused/);
  t.same(seen, [
    { name: 'double', args: { n: 2 }, result: { value: 4 }, caller: { type: 'chat_session', id: 's-1' } },
    { name: 'double', args: { n: 13 }, result: { value: 26 }, caller: { type: 'chat_session', id: 's-1' } },
  ], 'invalid calls are not observed');
});

t.test('calling or listing functions directly needs the admin role: a member emits nothing', async (t) => {
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: 'test/fixtures/manifests/events.yaml' } });
  const admin = await tenantWithAdmin(tp, 'fn-roles');
  const created = await tp.request({
    method: 'POST', url: '/api/admin/users', token: tp.adminToken,
    payload: { sub: 'plain-member', display_name: 'Member', organizations: ['fn-roles'], roles: [] },
  });
  t.equal(created.status, 201);
  const member = (await tp.request({ method: 'POST', url: '/api/admin/users/plain-member/tokens', token: tp.adminToken })).body.access_token;

  const call = await tp.request({
    method: 'POST', url: '/api/admin/functions/emit_event/call', token: member,
    payload: { arguments: { type: 'webhook.received', source: 'forged', data: { forged: true } } },
  });
  t.equal(call.status, 403);
  t.equal(call.body.code, 'ROLE_REQUIRED');
  const listed = await tp.request({ url: '/api/admin/functions', token: member });
  t.equal(listed.status, 403);
  const recent = await tp.request({ url: '/api/admin/triggers/events/recent', token: admin.token });
  t.same(recent.body.items.filter((e: { source: string }) => e.source === 'forged'), [], 'no event was emitted');

  const asAdmin = await tp.request({
    method: 'POST', url: '/api/admin/functions/emit_event/call', token: admin.token,
    payload: { arguments: { type: 'webhook.received', source: 'admin-call', data: {} } },
  });
  t.equal(asAdmin.status, 200, 'an admin still may');
});

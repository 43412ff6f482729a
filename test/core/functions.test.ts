import t from 'tap';
import { startTestPlatform, tenantWithAdmin } from '../harness.ts';
import { FunctionRegistry } from '../../core/functions/registry.ts';
import { imported, integrationsFixture, startApiServer } from '../../plugins/integrations/test/helpers.ts';

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
  t.same(inA.body.result.items.map((c: { name: string }) => c.name), ['default', 'only-in-a']);
  const inB = await callAs(b.token, 'list_clients', {});
  t.same(inB.body.result.items.map((c: { name: string }) => c.name), ['default'], 'the call runs in the caller\'s tenant');

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
    list: async (tenantId) => (tenantId === 'acme' ? [{ name: 'acme_get_pet', description: 'Pet', parameters: {}, source: 'petstore', status: 'active' as const }] : []),
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

t.test('the function list filters by source (a spec name or platform) and status, and pages like the other lists', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  const spec = (title: string, paths: string[]) => ({
    openapi: '3.0.3',
    info: { title, version: '1' },
    servers: [{ url: api.url }],
    paths: Object.fromEntries(paths.map((path) => [path, { get: { operationId: `get_${path.slice(1)}`, summary: `Get ${path}` } }])),
  });
  await imported(tp, token, { spec: spec('Shop', ['/orders', '/carts']), name: 'shop', prefix: 'shop' });
  await imported(tp, token, { spec: spec('Pets', ['/pets', '/owners']), name: 'pets', prefix: 'pet' });
  // Re-imported without /owners: that function is kept, marked removed.
  await imported(tp, token, { spec: spec('Pets', ['/pets']), name: 'pets', prefix: 'pet' });
  const list = async (query: string) => {
    const response = await tp.request({ url: `/api/admin/functions${query}`, token });
    t.equal(response.status, 200, query);
    return response.body;
  };
  const names = (body: { items: { name: string }[] }) => body.items.map((fn) => fn.name);

  const pets = await list('?source=pets');
  t.same(names(pets), ['pet_get_pets'], 'only the spec\'s functions, only active ones by default');
  t.match(pets, { items: [{ source: 'pets', status: 'active' }], total: 1, skip: 0, limit: 50 });
  t.same(names(await list('?source=pets&status=removed')), ['pet_get_owners']);
  t.match((await list('?source=pets&status=removed')).items[0], { source: 'pets', status: 'removed' });
  t.same(names(await list('?source=shop')), ['shop_get_carts', 'shop_get_orders']);
  t.same(names(await list('?source=nothing-here')), [], 'an unknown source lists nothing');

  const platform = await list('?source=platform');
  t.ok(platform.items.length > 0);
  t.ok(platform.items.every((fn: { source: string; status: string }) => fn.source === 'platform' && fn.status === 'active'));
  t.ok(names(platform).includes('emit_event'));
  t.same(names(await list('?source=platform&status=removed')), [], 'platform functions are never removed');

  const all = await list('');
  t.equal(all.total, platform.total + 3, 'every active function: the platform\'s and both specs\'');
  t.notOk(names(all).includes('pet_get_owners'), 'a removed function is not offered by default');
  t.same(names(await list('?status=removed')), ['pet_get_owners']);

  const page = await list('?skip=1&limit=2');
  t.same(names(page), names(all).slice(1, 3));
  t.match(page, { total: all.total, skip: 1, limit: 2 });

  for (const bad of ['?status=gone', '?source=%20x', '?limit=0', '?limit=501', '?skip=-1', '?bogus=1']) {
    const response = await tp.request({ url: `/api/admin/functions${bad}`, token });
    t.equal(response.status, 400, bad);
    t.equal(response.body.code, 'VALIDATION_FAILED', bad);
  }
});

t.test('every call is checked against the function\'s roles for the principal it carries', async (t) => {
  const registry = new FunctionRegistry();
  let calls = 0;
  const handler = async () => ++calls;
  registry.register('admin_only', { description: '', parameters: {}, handler });
  registry.register('for_members', { description: '', parameters: {}, roles: [], handler });
  registry.register('for_editors', { description: '', parameters: {}, roles: ['admin', 'pipeline_editor'], handler });
  const user = (roles: string[], tenant = 'acme') => ({ kind: 'user', sub: 'u', issuer: 'platform', serviceAccount: false, memberships: { [tenant]: { roles } } } as const);
  const context = (principal: object, granted?: string[]) => ({ tenantId: 'acme', principal: principal as never, granted, withTenant: null as never, logger: null as never });
  const refused = async (name: string, principal: object, granted?: string[]) => {
    const err = await registry.call(name, {}, context(principal, granted)).then(() => undefined, (e: { output?: { statusCode: number; payload: { code?: string } } }) => e);
    t.match(err?.output, { statusCode: 403, payload: { code: 'FUNCTION_FORBIDDEN' } }, `${name} refused`);
  };

  await refused('admin_only', user(['pipeline_editor']));
  await refused('admin_only', user([]));
  await refused('for_members', user(['admin'], 'beta'));
  await refused('for_members', { kind: 'api_key', sub: 'k', tenantId: 'beta', clientId: 1, keyId: 1 });
  await refused('admin_only', { kind: 'embed', sub: 'e', tenantId: 'acme', clientId: 1, externalUserId: 'x', displayName: 'X' }, ['for_members']);
  t.equal(calls, 0, 'nothing refused was called');
  await registry.call('admin_only', {}, context(user(['admin'])));
  await registry.call('for_editors', {}, context(user(['pipeline_editor'])));
  await registry.call('for_members', {}, context(user([])));
  await registry.call('for_members', {}, context({ kind: 'api_key', sub: 'k', tenantId: 'acme', clientId: 1, keyId: 1 }));
  // A function a tenant admin granted to the surface (a chat agent's functions): any member of the tenant.
  await registry.call('admin_only', {}, context({ kind: 'embed', sub: 'e', tenantId: 'acme', clientId: 1, externalUserId: 'x', displayName: 'X' }, ['admin_only']));
  await registry.call('admin_only', {}, context({ kind: 'service', sub: 'system:test' }));
  t.equal(calls, 6);
});

// The tenancy plugin over HTTP and through the CLI: tenants, clients, API keys,
// users, their tokens, and the client_credentials token endpoint.
import t from 'tap';
import { sql } from 'kysely';
import { decodeJwt } from 'jose';
import { runCli, startTestPlatform, tenantWithAdmin, type TestPlatform } from '../../harness.ts';

const tap = t;

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

async function tokenRequest(tp: TestPlatform, body: Record<string, string>, headers: Record<string, string> = {}) {
  return tp.request({
    method: 'POST', url: '/oauth/token', payload: form(body),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

t.test('tenants', async (t) => {
  const tp = await startTestPlatform(t);
  const a = await tenantWithAdmin(tp, 'tn-a');
  await tenantWithAdmin(tp, 'tn-b');

  const byAdmin = await tp.request({ method: 'POST', url: '/api/admin/tenants', token: a.token, payload: { id: 'tn-x' } });
  t.equal(byAdmin.status, 403, 'a tenant admin cannot create tenants');
  t.equal(byAdmin.body.code, 'SUPER_ADMIN_REQUIRED');
  const listByAdmin = await tp.request({ url: '/api/admin/tenants', token: a.token });
  t.equal(listByAdmin.status, 403, 'nor list them');

  const created = await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id: 'acme', display_name: 'Acme Inc' } });
  t.equal(created.status, 201);
  t.match(created.body, { id: 'acme', display_name: 'Acme Inc', created_at: String });
  const defaulted = await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id: 'acme-2' } });
  t.equal(defaulted.body.display_name, 'acme-2', 'the display name defaults to the alias');

  const duplicate = await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id: 'acme' } });
  t.equal(duplicate.status, 409, 'a duplicate alias conflicts');
  t.equal(duplicate.body.code, 'TENANT_EXISTS');

  for (const id of ['Acme', 'a'.repeat(65), 'acme_inc', 'acme inc', '']) {
    const bad = await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id } });
    t.equal(bad.status, 400, `alias ${JSON.stringify(id.length > 20 ? `${id.slice(0, 8)}…(${id.length})` : id)} is refused`);
    t.match(bad.body.message, /id/);
  }
  const unknownField = await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id: 'acme-3', plan: 'gold' } });
  t.equal(unknownField.status, 400, 'an unknown field is refused');

  const longest = await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id: 'a'.repeat(64) } });
  t.equal(longest.status, 201, '64 characters is the limit, inclusive');
  const uuid = '3f2b8c1e-9d4a-4e6b-8f7c-0a1b2c3d4e5f';
  const byUuid = await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id: uuid } });
  t.equal(byUuid.status, 201, 'a UUID alias is accepted');
  const uuidClients = await tp.request({ url: '/api/admin/clients', token: tp.adminToken, tenant: uuid });
  t.equal(uuidClients.status, 200, 'and usable as X-Tenant-ID');

  const page = await tp.request({ url: '/api/admin/tenants?skip=1&limit=2', token: tp.adminToken });
  t.equal(page.status, 200);
  t.equal(page.body.total, 6);
  t.equal(page.body.items.length, 2);
  t.same([page.body.skip, page.body.limit], [1, 2]);

  const own = await tp.request({ url: '/api/admin/tenants/tn-a', token: a.token });
  t.equal(own.status, 200, 'a member reads its tenant');
  t.equal(own.body.id, 'tn-a');
  const other = await tp.request({ url: '/api/admin/tenants/tn-b', token: a.token });
  t.equal(other.status, 403, 'but not another');
  t.equal(other.body.code, 'TENANT_FORBIDDEN');
});

t.test('clients', async (t) => {
  const tp = await startTestPlatform(t);
  const a = await tenantWithAdmin(tp, 'cl-a');
  const b = await tenantWithAdmin(tp, 'cl-b');

  const created = await tp.request({ method: 'POST', url: '/api/admin/clients', token: a.token, payload: { name: 'web' } });
  t.equal(created.status, 201);
  t.ok(Number.isInteger(created.body.id), 'id is an integer');
  t.match(created.body, { name: 'web', client_key: /^ck_[0-9a-f]+$/, created_at: String });
  const keyed = await tp.request({ method: 'POST', url: '/api/admin/clients', token: a.token, payload: { name: 'mobile', client_key: 'mobile-app' } });
  t.equal(keyed.status, 201);
  t.equal(keyed.body.client_key, 'mobile-app', 'a given client_key is kept');
  await tp.request({ method: 'POST', url: '/api/admin/clients', token: a.token, payload: { name: 'kiosk' } });
  const taken = await tp.request({ method: 'POST', url: '/api/admin/clients', token: b.token, payload: { name: 'x', client_key: 'mobile-app' } });
  t.equal(taken.status, 409, 'client keys are unique');
  t.equal(taken.body.code, 'CLIENT_KEY_TAKEN');
  const missingName = await tp.request({ method: 'POST', url: '/api/admin/clients', token: a.token, payload: {} });
  t.equal(missingName.status, 400);
  t.equal(missingName.body.code, 'VALIDATION_FAILED');
  t.same(missingName.body.fields, ['name']);

  const all = await tp.request({ url: '/api/admin/clients', token: a.token });
  t.equal(all.body.total, 3);
  t.same(all.body.items.map((c: { name: string }) => c.name), ['web', 'mobile', 'kiosk']);
  const page = await tp.request({ url: '/api/admin/clients?skip=1&limit=1', token: a.token });
  t.equal(page.status, 200);
  t.same(page.body.items.map((c: { name: string }) => c.name), ['mobile'], 'skip and limit page the list');
  t.equal(page.body.total, 3, 'total counts every client of the tenant');
  t.same([page.body.skip, page.body.limit], [1, 1]);
  for (const query of ['limit=0', 'limit=501', 'skip=-1', 'limit=abc']) {
    t.equal((await tp.request({ url: `/api/admin/clients?${query}`, token: a.token })).status, 400, `${query} is refused`);
  }
  const bList = await tp.request({ url: '/api/admin/clients', token: b.token });
  t.equal(bList.body.total, 0, 'another tenant sees none of them');

  const got = await tp.request({ url: `/api/admin/clients/${created.body.id}`, token: a.token });
  t.equal(got.status, 200);
  t.same(got.body, created.body);
  const foreign = await tp.request({ url: `/api/admin/clients/${created.body.id}`, token: b.token });
  t.equal(foreign.status, 404, 'another tenant\'s client id is not found');
  t.equal(foreign.body.code, 'CLIENT_NOT_FOUND');
  const foreignDelete = await tp.request({ method: 'DELETE', url: `/api/admin/clients/${created.body.id}`, token: b.token });
  t.equal(foreignDelete.status, 404, 'nor deletable by it');
  t.equal((await tp.request({ url: `/api/admin/clients/${created.body.id}`, token: a.token })).status, 200, 'and still there');
  t.equal((await tp.request({ url: '/api/admin/clients/abc', token: a.token })).status, 400, 'a non-numeric id is a 400');

  const deleted = await tp.request({ method: 'DELETE', url: `/api/admin/clients/${keyed.body.id}`, token: a.token });
  t.equal(deleted.status, 204);
  t.equal((await tp.request({ url: `/api/admin/clients/${keyed.body.id}`, token: a.token })).status, 404, 'a deleted client is gone');
});

t.test('API keys', async (t) => {
  const tp = await startTestPlatform(t);
  const a = await tenantWithAdmin(tp, 'key-a');
  const b = await tenantWithAdmin(tp, 'key-b');
  const client = (await tp.request({ method: 'POST', url: '/api/admin/clients', token: a.token, payload: { name: 'web' } })).body;
  const bClient = (await tp.request({ method: 'POST', url: '/api/admin/clients', token: b.token, payload: { name: 'web' } })).body;

  const created = await tp.request({ method: 'POST', url: '/api/admin/api-keys', token: a.token, payload: { name: 'server', client_id: client.id } });
  t.equal(created.status, 201);
  const key = created.body.key as string;
  t.match(created.body, { id: Number, name: 'server', client_id: client.id, key_prefix: String, revoked_at: null });
  t.match(key, /^pk_key-a_[0-9a-f]{64}$/, 'the key is returned at creation');
  t.ok(key.startsWith(created.body.key_prefix), 'with a display prefix');
  t.ok(created.body.key_prefix.length < key.length - 32, 'the prefix shows little of the secret');

  const listed = await tp.request({ url: '/api/admin/api-keys', token: a.token });
  t.equal(listed.status, 200);
  t.equal(listed.body.items.length, 1);
  t.notOk('key' in listed.body.items[0], 'the key is never listed');
  t.notOk(JSON.stringify(listed.body).includes(key.slice(-64)), 'nor any part of its secret');
  const byClient = await tp.request({ url: `/api/admin/api-keys?client_id=${client.id}`, token: a.token });
  t.equal(byClient.body.items.length, 1);

  const rows = await tp.platform.core.withTenant('key-a', async (trx) => (await sql<Record<string, unknown>>`SELECT * FROM api_keys`.execute(trx)).rows);
  t.equal(rows.length, 1);
  const stored = rows[0];
  t.notOk(Object.values(stored).some((value) => typeof value === 'string' && value.includes(key.slice(-64))), 'no column holds the key');
  t.type(stored.key_hash, 'string');
  t.not(stored.key_hash, key, 'key_hash is not the key');
  t.match(stored.key_hash, /^[0-9a-f]{64}$/, 'but a hash of it');

  const foreignClient = await tp.request({ method: 'POST', url: '/api/admin/api-keys', token: a.token, payload: { name: 'x', client_id: bClient.id } });
  t.equal(foreignClient.status, 404, 'a key for another tenant\'s client cannot be created');
  const bKeys = await tp.request({ url: '/api/admin/api-keys', token: b.token });
  t.same(bKeys.body.items, [], 'another tenant lists none');
  const foreignRevoke = await tp.request({ method: 'DELETE', url: `/api/admin/api-keys/${created.body.id}`, token: b.token });
  t.equal(foreignRevoke.status, 404, 'nor revokes it');
  t.equal((await tp.request({ url: '/api/me', apiKey: key })).status, 200, 'the key still works');

  const revoked = await tp.request({ method: 'DELETE', url: `/api/admin/api-keys/${created.body.id}`, token: a.token });
  t.equal(revoked.status, 204);
  const afterRevoke = await tp.request({ url: '/api/admin/api-keys', token: a.token });
  t.type(afterRevoke.body.items[0].revoked_at, 'string', 'the list shows it revoked');
  t.equal((await tp.request({ url: '/api/me', apiKey: key })).status, 401);
});

t.test('users', async (t) => {
  const tp = await startTestPlatform(t);
  const a = await tenantWithAdmin(tp, 'us-a');
  const b = await tenantWithAdmin(tp, 'us-b');

  const own = await tp.request({ method: 'POST', url: '/api/admin/users', token: a.token, payload: { sub: 'erin', display_name: 'Erin', roles: ['editor'] } });
  t.equal(own.status, 201, 'a tenant admin creates a user in its tenant');
  t.match(own.body, { sub: 'erin', display_name: 'Erin', service_account: false, organizations: { 'us-a': { roles: ['editor'] } } });
  t.same(Object.keys(own.body.organizations), ['us-a']);

  for (const organizations of [['us-b'], ['us-a', 'us-b'], { 'us-b': { roles: ['admin'] } }]) {
    const res = await tp.request({ method: 'POST', url: '/api/admin/users', token: a.token, payload: { sub: 'frank', display_name: 'Frank', organizations } });
    t.equal(res.status, 403, `a tenant admin may not grant ${JSON.stringify(organizations)}`);
    t.equal(res.body.code, 'TENANT_FORBIDDEN');
  }
  const viaHeader = await tp.request({ method: 'POST', url: '/api/admin/users', token: a.token, tenant: 'us-b', payload: { sub: 'frank', display_name: 'Frank' } });
  t.equal(viaHeader.status, 403, 'nor act in another tenant with X-Tenant-ID');
  const frankToken = await tp.request({ method: 'POST', url: '/api/admin/users/frank/tokens', token: tp.adminToken });
  t.equal(frankToken.status, 404, 'the refused user was not created');

  const bySuper = await tp.request({
    method: 'POST', url: '/api/admin/users', token: tp.adminToken,
    payload: { sub: 'grace', display_name: 'Grace', organizations: { 'us-a': { roles: ['admin'] }, 'us-b': {} }, roles: ['viewer'] },
  });
  t.equal(bySuper.status, 201, 'the super-admin names any organizations');
  t.same(bySuper.body.organizations, { 'us-a': { roles: ['admin'] }, 'us-b': { roles: ['viewer'] } }, 'roles apply where an organization names none');
  const noOrgs = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'henry', display_name: 'Henry' } });
  t.equal(noOrgs.status, 400, 'the super-admin must name organizations or a tenant');
  t.equal(noOrgs.body.code, 'TENANT_REQUIRED');
  const unknownTenant = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'henry', display_name: 'Henry', organizations: ['us-nowhere'] } });
  t.equal(unknownTenant.status, 404);
  t.equal(unknownTenant.body.code, 'TENANT_NOT_FOUND');
  const badAlias = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'henry', display_name: 'Henry', organizations: ['US-A'] } });
  t.equal(badAlias.status, 400);

  const added = await tp.request({ method: 'POST', url: '/api/admin/users', token: b.token, payload: { sub: 'erin', display_name: 'Erin', roles: ['admin'] } });
  t.equal(added.status, 200, 'posting an existing user adds the membership');
  t.same(added.body.organizations, { 'us-b': { roles: ['admin'] } }, 'and shows the caller only its own tenant\'s membership');
  t.notOk('client_secret' in added.body);
  const erinAll = decodeJwt((await tp.request({ method: 'POST', url: '/api/admin/users/erin/tokens', token: tp.adminToken })).body.access_token);
  t.same(erinAll.organizations, { 'us-a': { roles: ['editor'] }, 'us-b': { roles: ['admin'] } }, 'the earlier membership is kept');
  const flip = await tp.request({ method: 'POST', url: '/api/admin/users', token: a.token, payload: { sub: 'erin', display_name: 'Erin', service_account: true } });
  t.equal(flip.status, 409, 'a user cannot be turned into a service account');

  const listA = await tp.request({ url: '/api/admin/users', token: a.token });
  t.equal(listA.status, 200);
  t.same(listA.body.items.map((u: { sub: string }) => u.sub), ['erin', 'grace', 'us-a-admin']);
  t.equal(listA.body.total, 3);
  for (const user of listA.body.items) t.same(Object.keys(user.organizations), ['us-a'], `${user.sub}: only the current tenant's membership`);
  t.same(listA.body.items[0].organizations, { 'us-a': { roles: ['editor'] } });
  const listB = await tp.request({ url: '/api/admin/users?limit=1&skip=1', token: tp.adminToken, tenant: 'us-b' });
  t.same(listB.body.items.map((u: { sub: string; organizations: object }) => [u.sub, Object.keys(u.organizations)]), [['grace', ['us-b']]]);
  t.equal(listB.body.total, 3);
  t.notOk(JSON.stringify(listA.body).includes('secret'), 'no secret hash is listed');
});

t.test('user tokens', async (t) => {
  const tp = await startTestPlatform(t);
  const a = await tenantWithAdmin(tp, 'tk-a');
  const b = await tenantWithAdmin(tp, 'tk-b');
  await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'ivan', display_name: 'Ivan', organizations: { 'tk-a': { roles: ['admin'] }, 'tk-b': { roles: ['admin'] } } } });
  await tp.request({ method: 'POST', url: '/api/admin/users', token: b.token, payload: { sub: 'judy', display_name: 'Judy' } });

  const issued = await tp.request({ method: 'POST', url: '/api/admin/users/ivan/tokens', token: a.token });
  t.equal(issued.status, 201);
  t.match(issued.body, { access_token: String, token_type: 'Bearer', expires_in: 3600 });
  const claims = decodeJwt(issued.body.access_token);
  t.equal(claims.sub, 'ivan');
  t.same(claims.organizations, { 'tk-a': { roles: ['admin'] } }, 'a tenant admin issues a token for its own tenant only');
  t.ok(claims.exp! - claims.iat! === 3600);
  const works = await tp.request({ url: '/api/admin/clients', token: issued.body.access_token });
  t.equal(works.status, 200, 'the token works in that tenant');
  const notB = await tp.request({ url: '/api/admin/clients', token: issued.body.access_token, tenant: 'tk-b' });
  t.equal(notB.status, 403, 'and not in the user\'s other tenant');

  const foreign = await tp.request({ method: 'POST', url: '/api/admin/users/judy/tokens', token: a.token });
  t.equal(foreign.status, 404, 'a tenant admin cannot issue for a user of another tenant');
  t.equal(foreign.body.code, 'USER_NOT_FOUND');
  const superAdmins = await tp.request({ method: 'POST', url: '/api/admin/users/judy/tokens', token: tp.adminToken });
  t.equal(superAdmins.status, 201, 'the super-admin can');
  const judy = superAdmins.body.access_token as string;
  t.same(decodeJwt(judy).organizations, { 'tk-b': { roles: [] } });
  const byMember = await tp.request({ method: 'POST', url: '/api/admin/users/judy/tokens', token: judy });
  t.equal(byMember.status, 403, 'a member without role admin cannot issue tokens');
  const nobody = await tp.request({ method: 'POST', url: '/api/admin/users/nobody/tokens', token: tp.adminToken });
  t.equal(nobody.status, 404);
});

t.test('OAuth client_credentials', async (t) => {
  const tp = await startTestPlatform(t, { captureLogs: true });
  await tenantWithAdmin(tp, 'oa-a');
  const b = await tenantWithAdmin(tp, 'oa-b');
  await tp.request({ method: 'POST', url: '/api/admin/clients', token: b.token, payload: { name: 'b-only' } });

  const created = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'svc-bot', display_name: 'Bot', organizations: ['oa-a'], service_account: true } });
  t.equal(created.status, 201);
  t.equal(created.body.service_account, true);
  const secret = created.body.client_secret as string;
  t.match(secret, /^cs_[0-9a-f]{64}$/, 'a service account gets its client_secret once');
  const listed = await tp.request({ url: '/api/admin/users', token: tp.adminToken, tenant: 'oa-a' });
  t.notOk(JSON.stringify(listed.body).includes(secret), 'never in a list');
  const again = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'svc-bot', display_name: 'Bot', organizations: ['oa-a'], service_account: true } });
  t.equal(again.status, 200);
  t.notOk('client_secret' in again.body, 'nor again on a later POST');

  const issued = await tokenRequest(tp, { grant_type: 'client_credentials', client_id: 'svc-bot', client_secret: secret });
  t.equal(issued.status, 200, 'a form-encoded client_credentials request gets a token');
  t.match(issued.body, { access_token: String, token_type: 'Bearer', expires_in: 3600 });
  t.equal(issued.headers['cache-control'], 'no-store');
  const clients = await tp.request({ url: '/api/admin/clients', token: issued.body.access_token });
  t.equal(clients.status, 200, 'the token works on its tenant');
  t.equal(clients.body.total, 0);
  const me = await tp.request({ url: '/api/me', token: issued.body.access_token });
  t.match(me.body, { kind: 'user', sub: 'svc-bot', tenant_id: 'oa-a' });
  const other = await tp.request({ url: '/api/admin/clients', token: issued.body.access_token, tenant: 'oa-b' });
  t.equal(other.status, 403, 'a service account is a user: membership applies');
  t.equal(other.body.code, 'TENANT_FORBIDDEN');
  t.notOk(tp.logs.some((line) => line.includes(secret) || line.includes(issued.body.access_token)), 'neither secret nor token is logged');

  const basic = await tokenRequest(tp, { grant_type: 'client_credentials' }, { authorization: `Basic ${Buffer.from(`svc-bot:${secret}`).toString('base64')}` });
  t.equal(basic.status, 200, 'HTTP Basic client authentication works');
  t.equal((await tp.request({ url: '/api/admin/clients', token: basic.body.access_token })).status, 200);
  const json = await tp.request({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'client_credentials', client_id: 'svc-bot', client_secret: secret } });
  t.equal(json.status, 200, 'a JSON body works too');

  const wrong = await tokenRequest(tp, { grant_type: 'client_credentials', client_id: 'svc-bot', client_secret: `${secret.slice(0, -1)}${secret.endsWith('0') ? '1' : '0'}` });
  t.equal(wrong.status, 401, 'a wrong secret is refused');
  t.equal(wrong.body.error, 'invalid_client');
  const wrongBasic = await tokenRequest(tp, { grant_type: 'client_credentials' }, { authorization: `Basic ${Buffer.from('svc-bot:nope').toString('base64')}` });
  t.equal(wrongBasic.status, 401);
  t.equal(wrongBasic.body.error, 'invalid_client');
  const mangledBasic = await tokenRequest(tp, { grant_type: 'client_credentials' }, { authorization: `Basic ${Buffer.from('svc-bot%:%zz').toString('base64')}` });
  t.equal(mangledBasic.status, 401, 'a malformed Basic credential is invalid_client, not a 500');
  t.equal(mangledBasic.body.error, 'invalid_client');
  const unknown = await tokenRequest(tp, { grant_type: 'client_credentials', client_id: 'nobody', client_secret: secret });
  t.equal(unknown.status, 401);
  t.equal(unknown.body.error, 'invalid_client');
  const person = await tokenRequest(tp, { grant_type: 'client_credentials', client_id: 'oa-a-admin', client_secret: 'anything' });
  t.equal(person.status, 401, 'a person is no OAuth client');
  t.equal(person.body.error, 'invalid_client');
  const noSecret = await tokenRequest(tp, { grant_type: 'client_credentials', client_id: 'svc-bot' });
  t.equal(noSecret.status, 401);
  t.equal(noSecret.body.error, 'invalid_client');

  const password = await tokenRequest(tp, { grant_type: 'password', username: 'svc-bot', password: secret });
  t.equal(password.status, 400, 'the password grant is not supported');
  t.equal(password.body.error, 'unsupported_grant_type');
  const bare = await tokenRequest(tp, { grant_type: 'password' });
  t.equal(bare.status, 400);
  t.equal(bare.body.error, 'unsupported_grant_type');
});

const cli = (tp: TestPlatform, args: string[]) => runCli(args, { platform: tp });

async function cliJson(t: Pick<typeof tap, 'equal' | 'comment'>, tp: TestPlatform, args: string[]) {
  const result = await cli(tp, args);
  t.equal(result.code, 0, `platform ${args.join(' ')} exits 0`);
  if (result.code !== 0) t.comment(result.stderr);
  return JSON.parse(result.stdout);
}

t.test('CLI against the same database', async (t) => {
  const tp = await startTestPlatform(t);

  const tenant = await cliJson(t, tp, ['tenants', 'create', 'cli-t', '--json']);
  t.match(tenant, { id: 'cli-t', display_name: 'cli-t' });
  const client = await cliJson(t, tp, ['clients', 'create', '--tenant', 'cli-t', '--name', 'web', '--json']);
  t.match(client, { id: Number, client_key: /^ck_/, name: 'web' });
  const user = await cliJson(t, tp, ['users', 'create', '--sub', 'bob', '--display-name', 'Bob', '--tenant', 'cli-t', '--roles', 'admin', '--json']);
  t.match(user, { sub: 'bob', display_name: 'Bob', organizations: { 'cli-t': { roles: ['admin'] } }, service_account: false });
  const token = await cliJson(t, tp, ['tokens', 'issue', '--sub', 'bob', '--tenant', 'cli-t', '--json']);
  t.match(token, { access_token: String, token_type: 'Bearer', expires_in: Number });
  const key = await cliJson(t, tp, ['api-keys', 'create', '--tenant', 'cli-t', '--client-id', String(client.id), '--name', 'k', '--json']);
  t.match(key, { key: /^pk_cli-t_[0-9a-f]{64}$/, client_id: client.id, name: 'k' });

  const clients = await tp.request({ url: '/api/admin/clients', token: token.access_token });
  t.equal(clients.status, 200, 'the CLI token works against the server');
  t.same(clients.body.items.map((c: { id: number; name: string }) => [c.id, c.name]), [[client.id, 'web']]);
  const write = await tp.request({ method: 'POST', url: '/api/admin/clients', token: token.access_token, payload: { name: 'from-server' } });
  t.equal(write.status, 201, 'with bob\'s admin role');
  const me = await tp.request({ url: '/api/me', apiKey: key.key });
  t.equal(me.status, 200, 'the CLI API key works against the server');
  t.match(me.body, { kind: 'api_key', tenant_id: 'cli-t', client_id: client.id });
  const listed = await cliJson(t, tp, ['clients', 'list', '--tenant', 'cli-t', '--json']);
  t.same(listed.items.map((c: { name: string }) => c.name), ['web', 'from-server'], 'and the CLI sees what the server wrote');

  const unknownOption = await cli(tp, ['tenants', 'create', 'cli-u', '--bogus', '--json']);
  t.not(unknownOption.code, 0, 'an unknown option exits non-zero');
  t.match(unknownOption.stderr, /^error: .*bogus.*\n?$/, 'with one error line');
  t.equal(unknownOption.stderr.trim().split('\n').length, 1);
  const missing = await cli(tp, ['clients', 'create', '--tenant', 'cli-t', '--json']);
  t.not(missing.code, 0, 'a missing required option exits non-zero');
  t.match(missing.stderr, /^error: .*--name is required\n?$/);
  t.equal(missing.stderr.trim().split('\n').length, 1);
  const badId = await cli(tp, ['api-keys', 'create', '--tenant', 'cli-t', '--client-id', 'abc', '--name', 'k', '--json']);
  t.not(badId.code, 0);
  t.match(badId.stderr, /^error: --client-id must be a positive integer\n?$/);
  const duplicate = await cli(tp, ['tenants', 'create', 'cli-t', '--json']);
  t.not(duplicate.code, 0, 'a domain error exits non-zero');
  t.match(duplicate.stderr, /^error: Tenant already exists: cli-t \(TENANT_EXISTS\)\n?$/);
  const stillOne = await tp.request({ url: '/api/admin/tenants', token: tp.adminToken });
  t.equal(stillOne.body.total, 1, 'nothing was created by the failed commands');
});

// Every principal the bearer and api-key schemes accept, and the ways each is
// refused: super-admin token, platform user JWTs, OIDC JWTs (against a real
// issuer on loopback), service tokens and API keys; with the tenant rules
// (TENANT_REQUIRED, TENANT_INVALID, TENANT_FORBIDDEN, TENANT_MEMBERSHIP_MISSING).
import t from 'tap';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, decodeJwt, type JWTPayload } from 'jose';
import { runCli, startTestPlatform, tenantWithAdmin, type TestPlatform } from '../harness.ts';

const AUD = 'agent-platform';

/** Signs a token the way the platform does (HS256 under its derived key), with the claims given. */
async function platformJwt(
  tp: TestPlatform,
  claims: JWTPayload,
  { sub = 'someone', key, exp, iat }: { sub?: string; key?: Uint8Array; exp?: number | string; iat?: number } = {},
): Promise<string> {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(sub)
    .setIssuer('agent-platform')
    .setAudience(AUD)
    .setIssuedAt(iat)
    .setExpirationTime(exp ?? '5m');
  return jwt.sign(key ?? tp.platform.core.secrets.deriveKey('platform-jwt'));
}

/** A service token as a trusted service mints it (iss platform-service, aud agent-platform, 5 minutes); `claims` overrides. */
async function serviceJwt(secret: string, sub: string, claims: JWTPayload = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: 'platform-service', aud: AUD, iat: now, exp: now + 300, ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(sub)
    .sign(new TextEncoder().encode(secret));
}

async function createClient(tp: TestPlatform, token: string, name: string, tenant?: string) {
  const created = await tp.request({ method: 'POST', url: '/api/admin/clients', token, tenant, payload: { name } });
  if (created.status !== 201) throw new Error(`client ${name}: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body as { id: number; client_key: string; name: string };
}

t.test('super-admin token', async (t) => {
  const tp = await startTestPlatform(t);
  const list = await tp.request({ url: '/api/admin/tenants', token: tp.adminToken });
  t.equal(list.status, 200, 'accepted on a super-admin route');
  t.equal(list.body.total, 0);

  const me = await tp.request({ url: '/api/me', token: tp.adminToken });
  t.equal(me.status, 200);
  t.match(me.body, { kind: 'super_admin', sub: 'super-admin', tenant_id: null });

  await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id: 'sa-a' } });
  const inTenant = await tp.request({ url: '/api/me', token: tp.adminToken, tenant: 'sa-a' });
  t.match(inTenant.body, { kind: 'super_admin', tenant_id: 'sa-a', roles: ['*'] }, 'acts in any tenant named by X-Tenant-ID');
  const clients = await tp.request({ url: '/api/admin/clients', token: tp.adminToken, tenant: 'sa-a' });
  t.equal(clients.status, 200);
  const noTenant = await tp.request({ url: '/api/admin/clients', token: tp.adminToken });
  t.equal(noTenant.status, 400, 'the super-admin has no tenant of its own');
  t.equal(noTenant.body.code, 'TENANT_REQUIRED');
  const unknownTenant = await tp.request({ url: '/api/admin/clients', token: tp.adminToken, tenant: 'sa-nowhere' });
  t.equal(unknownTenant.status, 404);
  t.equal(unknownTenant.body.code, 'TENANT_NOT_FOUND');

  const wrong = await tp.request({ url: '/api/admin/tenants', token: `adm_${randomBytes(16).toString('hex')}` });
  t.equal(wrong.status, 401, 'a wrong token is refused');
  t.equal(wrong.body.code, 'INVALID_TOKEN');
  t.same(Object.keys(wrong.body).sort(), ['code', 'error', 'message', 'statusCode']);

  const missing = await tp.request({ url: '/api/admin/tenants' });
  t.equal(missing.status, 401, 'no Authorization header is refused');
  t.match(String(missing.headers['www-authenticate']), /Bearer/);

  const basic = await tp.request({ url: '/api/admin/tenants', headers: { authorization: `Basic ${tp.adminToken}` } });
  t.equal(basic.status, 401, 'another scheme is refused');
  t.equal(basic.body.code, 'INVALID_TOKEN');

  const garbageJwt = await tp.request({ url: '/api/admin/tenants', token: 'not.a.jwt' });
  t.equal(garbageJwt.status, 401, 'a malformed JWT is a 401, not a 500');
  t.equal(garbageJwt.body.code, 'INVALID_TOKEN');
});

t.test('platform user JWTs', async (t) => {
  const tp = await startTestPlatform(t);
  const a = await tenantWithAdmin(tp, 'pj-a');
  const b = await tenantWithAdmin(tp, 'pj-b');
  await createClient(tp, a.token, 'a-web');

  const claims = decodeJwt(a.token);
  t.equal(claims.iss, 'agent-platform');
  t.equal(claims.aud, 'agent-platform');
  t.same(claims.organizations, { 'pj-a': { roles: ['admin'] } });

  const me = await tp.request({ url: '/api/me', token: a.token });
  t.equal(me.status, 200);
  t.same(me.body, { kind: 'user', sub: 'pj-a-admin', tenant_id: 'pj-a', client_id: null, roles: ['admin'], tenants: [{ id: 'pj-a', roles: ['admin'] }] }, 'its only tenant is selected');
  const mine = await tp.request({ url: '/api/admin/clients', token: a.token });
  t.equal(mine.status, 200, 'accepted for its tenant');
  t.same(mine.body.items.map((c: { name: string }) => c.name), ['default', 'a-web']);
  const explicit = await tp.request({ url: '/api/admin/clients', token: a.token, tenant: 'pj-a' });
  t.equal(explicit.status, 200, 'accepted with X-Tenant-ID naming its tenant');

  const forged = await platformJwt(tp, { organizations: { 'pj-a': { roles: ['admin'] } } }, { sub: 'pj-a-admin', key: randomBytes(32) });
  const badSig = await tp.request({ url: '/api/admin/clients', token: forged });
  t.equal(badSig.status, 401, 'a token signed with another key is refused');
  t.equal(badSig.body.code, 'INVALID_TOKEN');

  const [head, , sig] = a.token.split('.');
  const widened = Buffer.from(JSON.stringify({ ...claims, organizations: { 'pj-a': { roles: ['admin'] }, 'pj-b': { roles: ['admin'] } } })).toString('base64url');
  const tampered = await tp.request({ url: '/api/admin/clients', token: `${head}.${widened}.${sig}`, tenant: 'pj-b' });
  t.equal(tampered.status, 401, 'a token whose claims were altered is refused');

  const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${widened}.`;
  const none = await tp.request({ url: '/api/admin/clients', token: unsigned, tenant: 'pj-b' });
  t.equal(none.status, 401, 'an unsigned (alg none) token is refused');

  const now = Math.floor(Date.now() / 1000);
  const expired = await platformJwt(tp, { organizations: { 'pj-a': { roles: ['admin'] } } }, { sub: 'pj-a-admin', iat: now - 7200, exp: now - 3600 });
  const late = await tp.request({ url: '/api/admin/clients', token: expired });
  t.equal(late.status, 401, 'an expired token is refused');
  t.equal(late.body.code, 'TOKEN_EXPIRED');

  const otherAudience = await new SignJWT({ organizations: { 'pj-a': { roles: ['admin'] } } })
    .setProtectedHeader({ alg: 'HS256' }).setSubject('pj-a-admin').setIssuer('agent-platform').setAudience('someone-else')
    .setExpirationTime('5m').sign(tp.platform.core.secrets.deriveKey('platform-jwt'));
  const aud = await tp.request({ url: '/api/admin/clients', token: otherAudience });
  t.equal(aud.status, 401, 'a token for another audience is refused');

  const crossing = await tp.request({ url: '/api/admin/clients', token: a.token, tenant: b.alias });
  t.equal(crossing.status, 403, 'a token of tenant A with X-Tenant-ID of tenant B is forbidden');
  t.equal(crossing.body.code, 'TENANT_FORBIDDEN');
  const crossingWrite = await tp.request({ method: 'POST', url: '/api/admin/clients', token: a.token, tenant: b.alias, payload: { name: 'sneaky' } });
  t.equal(crossingWrite.status, 403);
  t.equal(crossingWrite.body.code, 'TENANT_FORBIDDEN');
  const bClients = await tp.request({ url: '/api/admin/clients', token: b.token });
  t.same(bClients.body.items.map((c: { name: string }) => c.name), ['default'], 'nothing was written into tenant B');

  for (const bad of ['PJ-A', 'pj_a', 'a'.repeat(65), 'pj a', '../pj-a']) {
    const res = await tp.request({ url: '/api/admin/clients', token: a.token, tenant: bad });
    t.equal(res.status, 400, `malformed X-Tenant-ID ${JSON.stringify(bad)} is a 400`);
    t.equal(res.body.code, 'TENANT_INVALID');
  }
  const uuidTenant = await tp.request({ url: '/api/admin/clients', token: a.token, tenant: '0b6f8f5e-4b7e-4f8e-9a4c-2f3d5e6a7b8c' });
  t.equal(uuidTenant.status, 403, 'a UUID alias is well-formed (then refused for membership, not format)');
  t.equal(uuidTenant.body.code, 'TENANT_FORBIDDEN');
});

t.test('membership claims', async (t) => {
  const tp = await startTestPlatform(t, { captureLogs: true });
  const a = await tenantWithAdmin(tp, 'mc-a');
  await tenantWithAdmin(tp, 'mc-b');
  await tenantWithAdmin(tp, 'mc-c');
  await createClient(tp, a.token, 'a-web');

  const bare = await platformJwt(tp, { roles: ['admin'] }, { sub: 'nobody' });
  for (const tenant of ['mc-a', undefined]) {
    const res = await tp.request({ url: '/api/admin/clients', token: bare, tenant });
    t.equal(res.status, 403, `no membership claim is forbidden (X-Tenant-ID ${tenant ?? 'absent'})`);
    t.equal(res.body.code, 'TENANT_MEMBERSHIP_MISSING');
  }
  const logged = tp.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
  const warning = logged.find((entry) => entry.event === 'tenant_membership_missing' || entry.msg === 'tenant_membership_missing');
  t.ok(warning, 'the API logs tenant_membership_missing');
  t.equal(warning?.sub, 'nobody', 'the log names the subject');
  t.notOk(tp.logs.some((line) => line.includes(bare)), 'the token itself is never logged');

  const legacyOnly = await platformJwt(tp, { tenant_id: 'mc-a' }, { sub: 'legacy' });
  const legacyRes = await tp.request({ url: '/api/admin/clients', token: legacyOnly, tenant: 'mc-a' });
  t.equal(legacyRes.status, 403, 'a legacy tenant_id claim is no membership');
  t.equal(legacyRes.body.code, 'TENANT_MEMBERSHIP_MISSING');

  const organization = await platformJwt(tp, { organization: { 'mc-a': { roles: ['admin'] } } }, { sub: 'org-object' });
  const orgMe = await tp.request({ url: '/api/me', token: organization, tenant: 'mc-a' });
  t.equal(orgMe.status, 200, '`organization` keyed by alias is accepted');
  t.same(orgMe.body.roles, ['admin']);
  const orgWrite = await tp.request({ method: 'POST', url: '/api/admin/clients', token: organization, payload: { name: 'by-organization' } });
  t.equal(orgWrite.status, 201, 'its roles count');
  const orgOther = await tp.request({ url: '/api/admin/clients', token: organization, tenant: 'mc-b' });
  t.equal(orgOther.status, 403);
  t.equal(orgOther.body.code, 'TENANT_FORBIDDEN');

  const single = await platformJwt(tp, { organization: 'mc-b' }, { sub: 'org-single' });
  const singleRes = await tp.request({ url: '/api/me', token: single });
  t.equal(singleRes.status, 200, '`organization` as one alias is accepted');
  t.equal(singleRes.body.tenant_id, 'mc-b');

  const list = await platformJwt(tp, { organizations: ['mc-a', 'mc-b'] }, { sub: 'org-list' });
  const listB = await tp.request({ url: '/api/admin/clients', token: list, tenant: 'mc-b' });
  t.equal(listB.status, 200, 'a bare alias list is accepted');
  const listA = await tp.request({ url: '/api/admin/clients', token: list, tenant: 'mc-a' });
  t.equal(listA.status, 200);
  t.same(listA.body.items.map((c: { name: string }) => c.name), ['default', 'a-web', 'by-organization']);
  const listC = await tp.request({ url: '/api/admin/clients', token: list, tenant: 'mc-c' });
  t.equal(listC.status, 403, 'an alias not in the list is forbidden');
  t.equal(listC.body.code, 'TENANT_FORBIDDEN');
  const listNone = await tp.request({ url: '/api/admin/clients', token: list });
  t.equal(listNone.status, 400, 'two organizations and no X-Tenant-ID');
  t.equal(listNone.body.code, 'TENANT_REQUIRED');

  const orgList = await platformJwt(tp, { organization: ['mc-c'] }, { sub: 'org-alias-list' });
  const orgListRes = await tp.request({ url: '/api/me', token: orgList });
  t.equal(orgListRes.body.tenant_id, 'mc-c', '`organization` as an alias list is accepted');

  // Claims never select the tenant.
  const legacy = await platformJwt(tp, { organizations: { 'mc-a': { roles: [] } }, tenant_id: 'mc-b' }, { sub: 'legacy-a' });
  const legacyMe = await tp.request({ url: '/api/me', token: legacy });
  t.equal(legacyMe.body.tenant_id, 'mc-a', 'a tenant_id claim does not select the tenant');
  const legacyClients = await tp.request({ url: '/api/admin/clients', token: legacy });
  t.equal(legacyClients.status, 200);
  t.equal(legacyClients.body.total, 3, 'the request ran in the membership tenant');
  const legacyB = await tp.request({ url: '/api/admin/clients', token: legacy, tenant: 'mc-b' });
  t.equal(legacyB.status, 403, 'nor grants membership of the tenant it names');
  t.equal(legacyB.body.code, 'TENANT_FORBIDDEN');
  const legacyTwo = await platformJwt(tp, { organizations: ['mc-a', 'mc-b'], tenant_id: 'mc-a' }, { sub: 'legacy-two' });
  const legacyTwoRes = await tp.request({ url: '/api/admin/clients', token: legacyTwo });
  t.equal(legacyTwoRes.status, 400, 'with two memberships a tenant_id claim does not pick one');
  t.equal(legacyTwoRes.body.code, 'TENANT_REQUIRED');
});

t.test('tenant selection and roles of issued user tokens', async (t) => {
  const tp = await startTestPlatform(t);
  const a = await tenantWithAdmin(tp, 'ro-a');
  await tenantWithAdmin(tp, 'ro-b');

  const two = await tp.request({
    method: 'POST', url: '/api/admin/users', token: tp.adminToken,
    payload: { sub: 'carol', display_name: 'Carol', organizations: ['ro-a', 'ro-b'], roles: ['admin'] },
  });
  t.equal(two.status, 201);
  const carol = (await tp.request({ method: 'POST', url: '/api/admin/users/carol/tokens', token: tp.adminToken })).body.access_token;
  const noHeader = await tp.request({ url: '/api/admin/clients', token: carol });
  t.equal(noHeader.status, 400, 'a user of two tenants must send X-Tenant-ID');
  t.equal(noHeader.body.code, 'TENANT_REQUIRED');
  const withHeader = await tp.request({ url: '/api/admin/clients', token: carol, tenant: 'ro-b' });
  t.equal(withHeader.status, 200);
  const meNoTenant = await tp.request({ url: '/api/me', token: carol });
  t.equal(meNoTenant.status, 200, '/api/me takes no tenant');
  t.equal(meNoTenant.body.tenant_id, null);

  const member = await tp.request({
    method: 'POST', url: '/api/admin/users', token: a.token, payload: { sub: 'dave', display_name: 'Dave' },
  });
  t.equal(member.status, 201);
  t.same(member.body.organizations, { 'ro-a': { roles: [] } }, 'a member without roles');
  const daveTok = await tp.request({ method: 'POST', url: '/api/admin/users/dave/tokens', token: a.token });
  const dave = daveTok.body.access_token as string;
  const daveRead = await tp.request({ url: '/api/admin/clients', token: dave });
  t.equal(daveRead.status, 200, 'a member may read the clients');
  const daveWrite = await tp.request({ method: 'POST', url: '/api/admin/clients', token: dave, payload: { name: 'nope' } });
  t.equal(daveWrite.status, 403, 'a member without role admin may not create one');
  t.equal(daveWrite.body.code, 'ROLE_REQUIRED');
  const daveKeys = await tp.request({ url: '/api/admin/api-keys', token: dave });
  t.equal(daveKeys.status, 403, 'nor list API keys');
  const daveTenants = await tp.request({ method: 'POST', url: '/api/admin/tenants', token: dave, payload: { id: 'ro-new' } });
  t.equal(daveTenants.status, 403, 'nor create tenants');
  const still = await tp.request({ url: '/api/admin/clients', token: a.token });
  t.same(still.body.items.map((c: { name: string }) => c.name), ['default'], 'the refused write left nothing');
});

t.test('OIDC issuer tokens', async (t) => {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const other = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  let jwksRequests = 0;
  const idp = http.createServer((req, res) => {
    const base = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      res.end(JSON.stringify({ issuer: base, jwks_uri: `${base}/jwks`, id_token_signing_alg_values_supported: ['RS256'] }));
    } else if (req.url === '/jwks') {
      jwksRequests++;
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => idp.close(() => resolve())));
  const issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;

  const tp = await startTestPlatform(t, { env: { OIDC_ISSUER_URL: issuer, OIDC_AUDIENCE: 'some-client' } });
  await tenantWithAdmin(tp, 'oidc-a');
  await tenantWithAdmin(tp, 'oidc-b');

  const sign = (claims: JWTPayload, key: CryptoKey, kid = 'k1', iss = issuer, aud = 'some-client') =>
    new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).setIssuer(iss).setSubject('alice@idp')
      .setAudience(aud).setIssuedAt().setExpirationTime('5m').sign(key);

  const good = await sign({ organizations: { 'oidc-a': { roles: ['admin'] } } }, privateKey);
  const me = await tp.request({ url: '/api/me', token: good });
  t.equal(me.status, 200, 'a token signed by the issuer\'s key is accepted');
  t.same(me.body, { kind: 'user', sub: 'alice@idp', tenant_id: 'oidc-a', client_id: null, roles: ['admin'], tenants: [{ id: 'oidc-a', roles: ['admin'] }] });
  const write = await tp.request({ method: 'POST', url: '/api/admin/clients', token: good, payload: { name: 'from-oidc' } });
  t.equal(write.status, 201, 'with the roles of its organizations claim');
  t.ok(jwksRequests >= 1, 'the keys came from the JWKS named by the discovery document');
  const otherTenant = await tp.request({ url: '/api/admin/clients', token: good, tenant: 'oidc-b' });
  t.equal(otherTenant.status, 403);
  t.equal(otherTenant.body.code, 'TENANT_FORBIDDEN');

  const noClaim = await sign({}, privateKey);
  const noClaimRes = await tp.request({ url: '/api/admin/clients', token: noClaim, tenant: 'oidc-a' });
  t.equal(noClaimRes.status, 403);
  t.equal(noClaimRes.body.code, 'TENANT_MEMBERSHIP_MISSING');

  const sameKid = await sign({ organizations: { 'oidc-a': { roles: ['admin'] } } }, other.privateKey);
  const sameKidRes = await tp.request({ url: '/api/me', token: sameKid });
  t.equal(sameKidRes.status, 401, 'a token signed by another key is refused');
  t.equal(sameKidRes.body.code, 'INVALID_TOKEN');
  const otherKid = await sign({ organizations: { 'oidc-a': { roles: ['admin'] } } }, other.privateKey, 'k2');
  const otherKidRes = await tp.request({ url: '/api/me', token: otherKid });
  t.equal(otherKidRes.status, 401, 'a token naming a key the issuer does not publish is refused');

  const wrongIssuer = await sign({ organizations: { 'oidc-a': { roles: ['admin'] } } }, privateKey, 'k1', 'http://127.0.0.1:1/evil');
  const wrongIssuerRes = await tp.request({ url: '/api/me', token: wrongIssuer });
  t.equal(wrongIssuerRes.status, 401, 'the issuer\'s key is trusted only for its own iss');
  const otherClient = await sign({ organizations: { 'oidc-a': { roles: ['admin'] } } }, privateKey, 'k1', issuer, 'another-app');
  const otherClientRes = await tp.request({ url: '/api/me', token: otherClient });
  t.equal(otherClientRes.status, 401, 'a token the issuer minted for another client (OIDC_AUDIENCE) is refused');
  t.equal(otherClientRes.body.code, 'INVALID_TOKEN');
});

t.test('OIDC_ISSUER_URL without OIDC_AUDIENCE: boot fails with one line', async (t) => {
  const error = await startTestPlatform(t, { env: { OIDC_ISSUER_URL: 'http://127.0.0.1:1/idp', OIDC_AUDIENCE: '' } }).then(() => undefined, (err: unknown) => err);
  t.match(error, { name: 'ConfigError', message: /^OIDC_AUDIENCE is required when OIDC_ISSUER_URL is set/ });
  t.notOk(String((error as Error).message).includes('\n'), 'one line');

  // The way an operator meets it: `platform serve` exits 1 with that one line on stderr.
  const served = await runCli(['serve'], { env: { OIDC_ISSUER_URL: 'http://127.0.0.1:1/idp', OIDC_AUDIENCE: '', DATABASE_URL: '' }, timeoutMs: 30_000 });
  t.equal(served.code, 1);
  t.match(served.stderr.trim(), /^error: OIDC_AUDIENCE is required when OIDC_ISSUER_URL is set[^\n]*$/);
});

t.test('service tokens', async (t) => {
  const tp = await startTestPlatform(t);
  await tenantWithAdmin(tp, 'st-a');
  await tenantWithAdmin(tp, 'st-b');
  const token = await serviceJwt(tp.env.SERVICE_JWT_SECRET!, 'svc:ingestion-worker');

  for (const tenant of ['st-a', 'st-b']) {
    const list = await tp.request({ url: '/api/admin/clients', token, tenant });
    t.equal(list.status, 200, `accepted on tenant ${tenant} without membership`);
    const write = await tp.request({ method: 'POST', url: '/api/admin/clients', token, tenant, payload: { name: `svc-${tenant}` } });
    t.equal(write.status, 201, 'with every role');
  }
  const me = await tp.request({ url: '/api/me', token, tenant: 'st-b' });
  t.same(me.body, { kind: 'service', sub: 'svc:ingestion-worker', tenant_id: 'st-b', client_id: null, roles: ['*'], tenants: null });
  const noTenant = await tp.request({ url: '/api/admin/clients', token });
  t.equal(noTenant.status, 400, 'a cross-tenant token still names the tenant of a tenant request');
  t.equal(noTenant.body.code, 'TENANT_REQUIRED');
  const anotherSub = await serviceJwt(tp.env.SERVICE_JWT_SECRET!, 'anything-at-all');
  t.equal((await tp.request({ url: '/api/admin/clients', token: anotherSub, tenant: 'st-a' })).status, 200, 'any subject');

  const forged = await serviceJwt(randomBytes(32).toString('hex'), 'svc:ingestion-worker');
  const refused = await tp.request({ url: '/api/admin/clients', token: forged, tenant: 'st-a' });
  t.equal(refused.status, 401, 'signed with another secret: refused');
  t.equal(refused.body.code, 'INVALID_TOKEN');

  const eternal = await new SignJWT({ iss: 'platform-service', aud: AUD }).setProtectedHeader({ alg: 'HS256' }).setSubject('svc:forever')
    .setIssuedAt().sign(new TextEncoder().encode(tp.env.SERVICE_JWT_SECRET!));
  t.equal((await tp.request({ url: '/api/admin/clients', token: eternal, tenant: 'st-a' })).status, 401, 'a service token without exp is refused');
});

t.test('service tokens: issuer, audience and lifetime', async (t) => {
  const tp = await startTestPlatform(t);
  await tenantWithAdmin(tp, 'sc-a');
  const secret = tp.env.SERVICE_JWT_SECRET!;
  const call = async (token: string) => tp.request({ url: '/api/admin/clients', token, tenant: 'sc-a' });
  const now = Math.floor(Date.now() / 1000);

  t.equal((await call(await serviceJwt(secret, 'svc:ok'))).status, 200, 'iss platform-service, aud agent-platform, 5 minutes: accepted');
  t.equal((await call(await serviceJwt(secret, 'svc:ok', { iat: now - 10, exp: now + 3590 }))).status, 200, 'a lifetime of exactly SERVICE_JWT_MAX_TTL');

  const refusals: [string, JWTPayload][] = [
    ['a wrong iss', { iss: 'some-other-service' }],
    ['no iss', { iss: undefined }],
    ['no aud', { aud: undefined }],
    ['a wrong aud', { aud: 'another-platform' }],
    ['an aud list without this platform', { aud: ['a', 'b'] }],
    ['a lifetime over SERVICE_JWT_MAX_TTL', { iat: now - 10, exp: now + 3600 }],
    ['no iat', { iat: undefined }],
    ['an iat in the future (which would stretch the lifetime)', { iat: now + 3600, exp: now + 3700 }],
  ];
  for (const [what, claims] of refusals) {
    const refused = await call(await serviceJwt(secret, 'svc:bad', claims));
    t.equal(refused.status, 401, `${what}: refused`);
    t.equal(refused.body.code, 'INVALID_TOKEN');
    t.notOk(JSON.stringify(refused.body).includes(secret), 'never the secret');
  }
  const forged = await call(await serviceJwt('not-the-secret', 'svc:bad', { aud: 'x' }));
  t.same(forged.body.message, 'Invalid token', 'without the secret, nothing about the claims is told');

  const listed = await startTestPlatform(t, {
    env: { SERVICE_JWT_ISSUERS: 'ingest, billing', SERVICE_JWT_AUDIENCE: 'platform-eu', SERVICE_JWT_MAX_TTL: '60' },
  });
  await tenantWithAdmin(listed, 'sc-b');
  const to = async (token: string) => (await listed.request({ url: '/api/me', token, tenant: 'sc-b' })).status;
  const key = listed.env.SERVICE_JWT_SECRET!;
  t.equal(await to(await serviceJwt(key, 's', { iss: 'billing', aud: 'platform-eu', iat: now, exp: now + 60 })), 200, 'any listed issuer, the configured audience');
  t.equal(await to(await serviceJwt(key, 's', { iss: 'platform-service', aud: 'platform-eu', iat: now, exp: now + 60 })), 401, 'the default issuer is no longer listed');
  t.equal(await to(await serviceJwt(key, 's', { iss: 'ingest', aud: AUD, iat: now, exp: now + 60 })), 401, 'the default audience no longer names this platform');
  t.equal(await to(await serviceJwt(key, 's', { iss: 'ingest', aud: 'platform-eu', iat: now, exp: now + 61 })), 401, 'over SERVICE_JWT_MAX_TTL=60');
});

t.test('API keys', async (t) => {
  const tp = await startTestPlatform(t);
  const a = await tenantWithAdmin(tp, 'ak-a');
  const b = await tenantWithAdmin(tp, 'ak-b');
  const client = await createClient(tp, a.token, 'web');
  const created = await tp.request({ method: 'POST', url: '/api/admin/api-keys', token: a.token, payload: { name: 'web key', client_id: client.id } });
  t.equal(created.status, 201);
  const key = created.body.key as string;
  t.match(key, /^pk_ak-a_[0-9a-f]{64}$/);

  const me = await tp.request({ url: '/api/me', apiKey: key });
  t.equal(me.status, 200, 'accepted on /api/me');
  t.same(me.body, { kind: 'api_key', sub: `api-key:${created.body.id}`, tenant_id: 'ak-a', client_id: client.id, roles: [], tenants: [{ id: 'ak-a', roles: [] }] });
  const ownTenant = await tp.request({ url: '/api/me', apiKey: key, tenant: 'ak-a' });
  t.equal(ownTenant.status, 200);

  const foreign = await tp.request({ url: '/api/me', apiKey: key, tenant: b.alias });
  t.equal(foreign.status, 403, 'X-Tenant-ID of another tenant is forbidden');
  t.equal(foreign.body.code, 'TENANT_FORBIDDEN');

  for (const url of ['/api/admin/clients', '/api/admin/api-keys', '/api/admin/tenants', '/api/admin/users']) {
    const res = await tp.request({ url, apiKey: key });
    t.equal(res.status, 401, `an API key is not accepted on ${url}`);
  }

  const secret = key.slice('pk_ak-a_'.length);
  for (const garbage of ['garbage', `pk_ak-a_${'0'.repeat(64)}`, `pk_ak-b_${secret}`, `pk_ak-a_${secret.toUpperCase()}`, `${key}x`, 'pk_AK-A_00']) {
    const res = await tp.request({ url: '/api/me', apiKey: garbage });
    t.equal(res.status, 401, `a made-up key is refused (${garbage.slice(0, 12)}…)`);
  }

  const revoked = await tp.request({ method: 'DELETE', url: `/api/admin/api-keys/${created.body.id}`, token: a.token });
  t.equal(revoked.status, 204);
  const after = await tp.request({ url: '/api/me', apiKey: key });
  t.equal(after.status, 401, 'a revoked key is refused');
  const again = await tp.request({ method: 'DELETE', url: `/api/admin/api-keys/${created.body.id}`, token: a.token });
  t.equal(again.status, 404, 'revoking twice finds no active key');
});

// Session ownership is keyed by principal kind (and issuer), not by the bare
// subject, and an API key's sessions belong to the visitor the client names
// (X-Visitor-Id).
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import pg from 'pg';
import t from 'tap';
import { migrate } from '../../../core/db/migrate.ts';
import { CORE_MIGRATIONS, ROOT_DIR } from '../../../core/paths.ts';
import { textChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { createTestDatabase, startTestPlatform } from 'agent-platform/sdk/testing';
import { chatFixture, member, MANIFEST } from './helpers.ts';

t.test('a user whose sub is api-key:<id> owns nothing of that API key\'s sessions', async (t) => {
  const { tp, llm, token, tenant, clientId } = await chatFixture(t);
  const key = await tp.request({ method: 'POST', url: '/api/admin/api-keys', token, payload: { name: 'kiosk', client_id: clientId } });
  t.equal(key.status, 201);
  const keyId = key.body.id ?? key.body.api_key?.id;
  t.type(keyId, 'number', 'the key has a numeric id');
  const visitor = { 'x-visitor-id': 'visitor-aaaa' };
  const session = await tp.request({ method: 'POST', url: '/api/sessions', apiKey: key.body.key, headers: visitor, payload: { title: 'kiosk chat' } });
  t.equal(session.status, 201);
  llm!.enqueue({ chunks: textChunks('Kiosk answer.') });
  const asked = await tp.request({ method: 'POST', url: `/api/chat/${session.body.id}`, apiKey: key.body.key, headers: visitor, payload: { content: 'kiosk question' } });
  t.equal(asked.status, 200);

  // A platform user created with the API key's subject.
  const impostor = await member(tp, tenant, `api-key:${keyId}`);
  const listed = await tp.request({ url: '/api/sessions', token: impostor });
  t.same([listed.status, listed.body.items], [200, []], 'the user lists none of the key\'s sessions');
  for (const [method, url, payload] of [
    ['GET', `/api/sessions/${session.body.id}`], ['GET', `/api/sessions/${session.body.id}/messages`],
    ['PATCH', `/api/sessions/${session.body.id}`, { title: 'x' }], ['POST', `/api/chat/${session.body.id}`, { content: 'hi' }],
    ['POST', `/api/chat/${session.body.id}/cancel`], ['DELETE', `/api/sessions/${session.body.id}`],
  ] as const) {
    const response = await tp.request({ method, url, token: impostor, payload });
    t.same([response.status, response.body.code], [403, 'SESSION_FORBIDDEN'], `${method} ${url} by the user api-key:${keyId}`);
  }

  // And the other way round: the user's own session is not the key's.
  const users = await tp.request({ method: 'POST', url: '/api/sessions', token: impostor, payload: {} });
  t.equal(users.status, 201);
  const byKey = await tp.request({ url: '/api/sessions', apiKey: key.body.key, headers: visitor });
  t.same(byKey.body.items.map((s: any) => s.id), [session.body.id], 'the key\'s visitor sees only its own session');
  t.equal((await tp.request({ url: `/api/sessions/${users.body.id}/messages`, apiKey: key.body.key, headers: visitor })).status, 403);
  const messages = await tp.request({ url: `/api/sessions/${session.body.id}/messages`, apiKey: key.body.key, headers: visitor });
  t.same(messages.body.items.map((m: any) => m.content), ['kiosk question', 'Kiosk answer.']);
});

t.test('visitors sharing one API key do not share sessions; the visitor id is required and validated', async (t) => {
  const { tp, llm, token, clientId } = await chatFixture(t);
  const key = (await tp.request({ method: 'POST', url: '/api/admin/api-keys', token, payload: { name: 'widget', client_id: clientId } })).body.key;
  const alice = { 'x-visitor-id': 'visitor-alice-0001' };
  const bob = { 'x-visitor-id': 'visitor_bob-0002' };
  const mine = await tp.request({ method: 'POST', url: '/api/sessions', apiKey: key, headers: alice, payload: { title: 'alice' } });
  t.equal(mine.status, 201);
  llm!.enqueue({ chunks: textChunks('For Alice only.') });
  t.equal((await tp.request({ method: 'POST', url: `/api/chat/${mine.body.id}`, apiKey: key, headers: alice, payload: { content: 'private' } })).status, 200);

  t.same((await tp.request({ url: '/api/sessions', apiKey: key, headers: bob })).body.items, [], 'bob lists none of alice\'s sessions');
  for (const [method, url, payload] of [
    ['GET', `/api/sessions/${mine.body.id}`], ['GET', `/api/sessions/${mine.body.id}/messages`],
    ['GET', `/api/chat/${mine.body.id}/stream`], ['POST', `/api/chat/${mine.body.id}`, { content: 'hi' }],
    ['POST', `/api/chat/${mine.body.id}/feedback`, { message_id: 1, rating: 1 }], ['DELETE', `/api/sessions/${mine.body.id}`],
  ] as const) {
    const response = await tp.request({ method, url, apiKey: key, headers: bob, payload });
    t.same([response.status, response.body.code], [403, 'SESSION_FORBIDDEN'], `${method} ${url} by another visitor`);
  }
  const theirs = await tp.request({ method: 'POST', url: '/api/sessions', apiKey: key, headers: bob, payload: { title: 'bob' } });
  t.same((await tp.request({ url: '/api/sessions', apiKey: key, headers: bob })).body.items.map((s: any) => s.id), [theirs.body.id]);
  t.same((await tp.request({ url: '/api/sessions', apiKey: key, headers: alice })).body.items.map((s: any) => s.id), [mine.body.id]);

  const missing = await tp.request({ url: '/api/sessions', apiKey: key });
  t.same([missing.status, missing.body.code], [400, 'VISITOR_ID_REQUIRED']);
  t.match(missing.body.message, /X-Visitor-Id/);
  for (const bad of ['short', 'has space in it', 'x'.repeat(129), 'emoji-😀-visitor', 'semi;colon;id']) {
    const response = await tp.request({ url: '/api/sessions', apiKey: key, headers: { 'x-visitor-id': bad } });
    t.same([response.status, response.body.code], [400, 'INVALID_VISITOR_ID'], `visitor id ${JSON.stringify(bad).slice(0, 20)}`);
  }
  const noVisitorChat = await tp.request({ method: 'POST', url: `/api/chat/${mine.body.id}`, apiKey: key, payload: { content: 'hi' } });
  t.equal(noVisitorChat.status, 400, 'every chat route needs the visitor with an API key');
  // A bearer user needs no visitor id (and one sent is ignored).
  t.equal((await tp.request({ url: '/api/sessions', token, headers: { 'x-visitor-id': 'visitor-alice-0001' } })).body.items.length, 0);
  const rows = await tp.platform.core.withTenant('acme', (trx) => trx.selectFrom('chat_sessions').select(['owner_sub', 'owner_key']).orderBy('created_at').execute());
  t.match(rows[0], { owner_sub: /^api-key:\d+$/, owner_key: /^api-key:\d+:visitor:visitor-alice-0001$/ }, 'the bare subject is kept beside the owner key');
  t.equal(rows[1].owner_sub, rows[0].owner_sub);
  t.match(rows[1].owner_key, /:visitor:visitor_bob-0002$/);
});

t.test('sessions from before the owner key keep working for their users; a key\'s shared ones are no visitor\'s', async (t) => {
  // A database migrated up to the chat plugin's first migration, with sessions written then.
  const databaseUrl = await createTestDatabase(t);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'chat-owner-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await mkdir(path.join(dir, 'sql'));
  await copyFile(path.join(ROOT_DIR, 'plugins', 'chat', 'sql', '0001_init.sql'), path.join(dir, 'sql', '0001_init.sql'));
  const pool = new pg.Pool({ connectionString: databaseUrl });
  const pluginSql = (name: string) => ({ plugin: name, dir: path.join(ROOT_DIR, 'plugins', name, 'sql') });
  await migrate(pool, [CORE_MIGRATIONS, pluginSql('workflows'), pluginSql('events'), { plugin: 'chat', dir: path.join(dir, 'sql') }]);
  await pool.query(`INSERT INTO tenants (id, display_name) VALUES ('acme', 'Acme')`);
  await pool.query(`INSERT INTO users (sub, display_name, organizations) VALUES ('alice', 'Alice', '{"acme": {"roles": []}}')`);
  const clientId = (await pool.query(`INSERT INTO clients (tenant_id, name, client_key) VALUES ('acme', 'web', 'ck_acme_web') RETURNING id`)).rows[0].id;
  const legacy = async (owner: string) => (await pool.query(
    `INSERT INTO chat_sessions (tenant_id, client_id, owner_sub, title) VALUES ('acme', $1, $2, $2) RETURNING id`, [clientId, owner])).rows[0].id;
  const alices = await legacy('alice');
  const keys = await legacy('api-key:1');
  await pool.end();

  const tp = await startTestPlatform(t, { databaseUrl, env: { PLATFORM_MANIFEST: MANIFEST, LLM_BASE_URL: '' } });
  await tp.platform.start();
  const token = (await tp.request({ method: 'POST', url: '/api/admin/users/alice/tokens', token: tp.adminToken })).body.access_token;
  const listed = await tp.request({ url: '/api/sessions', token });
  t.same(listed.body.items.map((s: any) => s.id), [alices], 'the platform user still owns her session');
  t.equal((await tp.request({ url: `/api/sessions/${alices}/messages`, token })).status, 200);
  const key = await tp.request({ method: 'POST', url: '/api/admin/api-keys', token: tp.adminToken, headers: { 'x-tenant-id': 'acme' }, payload: { name: 'kiosk', client_id: Number(clientId) } });
  t.equal(key.body.id, 1, 'the key the legacy session was written for');
  const visitor = { 'x-visitor-id': 'visitor-0001' };
  t.same((await tp.request({ url: '/api/sessions', apiKey: key.body.key, headers: visitor })).body.items, [], 'a visitor does not inherit the sessions every visitor shared');
  t.equal((await tp.request({ url: `/api/sessions/${keys}`, apiKey: key.body.key, headers: visitor })).status, 403);
});

t.test('a platform user and an OIDC user with the same sub are two owners', async (t) => {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const idp = http.createServer((req, res) => {
    const base = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer: base, jwks_uri: `${base}/jwks` }));
    else if (req.url === '/jwks') res.end(JSON.stringify({ keys: [jwk] }));
    else res.writeHead(404).end('{}');
  });
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => idp.close(() => resolve())));
  const issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
  const { tp, tenant } = await chatFixture(t, { llm: false, env: { OIDC_ISSUER_URL: issuer, OIDC_AUDIENCE: 'chat-client' } });

  const platformCarol = await member(tp, tenant, 'carol');
  const oidcCarol = await new SignJWT({ organizations: { [tenant]: { roles: [] } } }).setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(issuer).setSubject('carol').setAudience('chat-client').setIssuedAt().setExpirationTime('5m').sign(privateKey);
  const me = await tp.request({ url: '/api/me', token: oidcCarol });
  t.same([me.status, me.body.sub], [200, 'carol'], 'the OIDC token is accepted as carol');

  const platformSession = await tp.request({ method: 'POST', url: '/api/sessions', token: platformCarol, payload: { title: 'platform' } });
  const oidcSession = await tp.request({ method: 'POST', url: '/api/sessions', token: oidcCarol, payload: { title: 'oidc' } });
  t.same((await tp.request({ url: '/api/sessions', token: platformCarol })).body.items.map((s: any) => s.title), ['platform']);
  t.same((await tp.request({ url: '/api/sessions', token: oidcCarol })).body.items.map((s: any) => s.title), ['oidc']);
  t.equal((await tp.request({ url: `/api/sessions/${platformSession.body.id}`, token: oidcCarol })).status, 403);
  t.equal((await tp.request({ url: `/api/sessions/${oidcSession.body.id}/messages`, token: platformCarol })).status, 403);
});

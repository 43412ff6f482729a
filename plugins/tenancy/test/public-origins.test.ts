// A tenant's public origins: the admin routes (roles, validation, tenant
// isolation) and the CLI; the CORS of the public routes (occurrences, Open311,
// forms): preflights and requests from an allowed origin, another tenant's
// origin and an unknown one; and a real cross-origin fetch from Chromium, a
// page on a second loopback origin calling the occurrence types and the
// public submission when its origin is allowed, and failing when it is not.
import t from 'tap';
import http from 'node:http';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { runCli, startTestPlatform, tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';

const MANIFEST = 'plugins/tenancy/test/fixtures/public-origins.yaml';
const CHROMIUM = '/usr/bin/chromium-headless-shell';
const CITY = 'https://city.example';
const OTHER = 'https://other.example';

async function member(tp: TestPlatform, tenant: string, sub: string, roles: string[]) {
  const created = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub, display_name: sub, organizations: [tenant], roles } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return (await tp.request({ method: 'POST', url: `/api/admin/users/${sub}/tokens`, token: tp.adminToken })).body.access_token as string;
}

async function occurrenceType(tp: TestPlatform, token: string) {
  const created = await tp.request({
    method: 'POST', url: '/api/backoffice/occurrence-types/', token,
    payload: { name: 'Pothole', code: 'pothole', form_schema: { version: 'v0', dynamic_fields: [] } },
  });
  if (created.status !== 201) throw new Error(`type: ${JSON.stringify(created.body)}`);
  return created.body as { id: number; code: string };
}

const report = (type: number) => ({ title: 'Broken lamp', description: 'The lamp at the corner is out', occurrence_type: type, latitude: 38.71, longitude: -9.14 });

t.test('public origins: admin routes, CLI, and CORS on every family of public routes', async (t) => {
  const tp = await startTestPlatform(t, { manifest: MANIFEST, listen: true });
  const acme = await tenantWithAdmin(tp, 'acme');
  const other = await tenantWithAdmin(tp, 'other');
  const acmeMember = await member(tp, 'acme', 'acme-member', []);
  const type = await occurrenceType(tp, acme.token);

  t.test('admin routes: roles, validation, tenant isolation', async (t) => {
    t.same((await tp.request({ url: '/api/admin/public-origins', token: acme.token })).body, { origins: [] }, 'none at first');
    t.equal((await tp.request({ url: '/api/admin/public-origins' })).status, 401, 'a login');
    t.equal((await tp.request({ url: '/api/admin/public-origins', token: acmeMember })).status, 403, 'a member is no admin');
    t.equal((await tp.request({ method: 'PUT', url: '/api/admin/public-origins', token: acmeMember, payload: { origins: [CITY] } })).status, 403);

    const put = await tp.request({ method: 'PUT', url: '/api/admin/public-origins', token: acme.token, payload: { origins: ['https://CITY.example:443/', CITY, 'https://www.city.example'] } });
    t.equal(put.status, 200, JSON.stringify(put.body));
    t.same(put.body, { origins: [CITY, 'https://www.city.example'] }, 'normalized, without duplicates, sorted');

    for (const [bad, reason] of [
      ['https://city.example/path', /"https:\/\/city.example\/path" must not have a path/],
      ['https://*.city.example', /must not use wildcards/],
      ['ftp://city.example', /must start with http:\/\/ or https:\/\//],
      ['https://city.example?x=1', /must not have a query string/],
      ['https://user:pw@city.example', /must not carry credentials/],
    ] as const) {
      const refused = await tp.request({ method: 'PUT', url: '/api/admin/public-origins', token: acme.token, payload: { origins: [OTHER, bad] } });
      t.equal(refused.status, 400, bad);
      t.equal(refused.body.code, 'INVALID_ORIGIN', bad);
      t.match(refused.body.message, reason, bad);
    }
    const tooMany = await tp.request({ method: 'PUT', url: '/api/admin/public-origins', token: acme.token, payload: { origins: Array.from({ length: 101 }, (_, i) => `https://s${i}.example`) } });
    t.equal(tooMany.status, 400, 'at most 100');
    t.equal((await tp.request({ method: 'PUT', url: '/api/admin/public-origins', token: acme.token, payload: {} })).status, 400, 'origins is required');
    t.same((await tp.request({ url: '/api/admin/public-origins', token: acme.token })).body, { origins: [CITY, 'https://www.city.example'] }, 'a refused list changed nothing');

    t.same((await tp.request({ url: '/api/admin/public-origins', token: other.token })).body, { origins: [] }, 'another tenant sees none of them');
    t.equal((await tp.request({ url: '/api/admin/public-origins', token: other.token, tenant: 'acme' })).status, 403, 'nor reads them naming the tenant');
    t.equal((await tp.request({ method: 'PUT', url: '/api/admin/public-origins', token: other.token, payload: { origins: [OTHER] } })).status, 200);
  });

  t.test('CLI: public-origins get and set', async (t) => {
    const set = await runCli(['public-origins', 'set', '--tenant', 'other', '--origin', OTHER, '--origin', 'https://shop.other.example', '--json'], { platform: tp });
    t.equal(set.code, 0, set.stderr);
    t.same(JSON.parse(set.stdout), { origins: [OTHER, 'https://shop.other.example'] });
    const bad = await runCli(['public-origins', 'set', '--tenant', 'other', '--origin', 'https://x.example/p'], { platform: tp });
    t.not(bad.code, 0);
    t.match(bad.stderr, /origins: "https:\/\/x.example\/p" must not have a path \(INVALID_ORIGIN\)/);
    t.not((await runCli(['public-origins', 'set', '--tenant', 'other'], { platform: tp })).code, 0, '--origin or --none is required');
    const got = await runCli(['public-origins', 'get', '--tenant', 'other', '--json'], { platform: tp });
    t.equal(got.code, 0, got.stderr);
    t.same(JSON.parse(got.stdout), { origins: [OTHER, 'https://shop.other.example'] }, 'the failed set changed nothing');
    t.not((await runCli(['public-origins', 'get', '--tenant', 'nobody'], { platform: tp })).code, 0, 'an unknown tenant');
    const people = await runCli(['public-origins', 'get', '--tenant', 'other'], { platform: tp });
    t.match(people.stdout, /shop\.other\.example/);
  });

  const preflight = (url: string, origin: string, method = 'POST') => tp.request({
    method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type, x-tenant-id' },
  });
  const families = [
    { name: 'occurrence types', method: 'GET', url: '/api/occurrence-types/', tenant: 'acme' },
    { name: 'one occurrence type', method: 'GET', url: `/api/occurrence-types/${type.id}`, tenant: 'acme' },
    { name: 'public submission', method: 'POST', url: '/api/occurrences/public_submit', tenant: 'acme', payload: report(type.id) },
    { name: 'duplicate check', method: 'POST', url: '/api/occurrences/check_duplicates', tenant: 'acme', payload: report(type.id) },
    { name: 'a form (an unknown use case: its 404 too)', method: 'GET', url: '/api/forms/use-cases/00000000-0000-4000-8000-000000000000', tenant: 'acme' },
    { name: 'Open311 services', method: 'GET', url: '/open311/v2/acme/services.json' },
    { name: 'Open311 post', method: 'POST', url: '/open311/v2/acme/requests.json', payload: { service_code: type.code, lat: 38.71, long: -9.14, description: 'Lamp out' } },
  ];

  t.test('preflights: the allowed origin gets CORS, others none', async (t) => {
    for (const family of families) {
      const allowed = await preflight(family.url, CITY, family.method);
      t.equal(allowed.status, 204, family.name);
      t.equal(allowed.headers['access-control-allow-origin'], CITY, family.name);
      t.match(allowed.headers['access-control-allow-methods'], family.method, family.name);
      t.equal(allowed.headers['access-control-allow-headers'], 'content-type, x-tenant-id', family.name);
      t.equal(allowed.headers['access-control-max-age'], '600', family.name);
      t.match(allowed.headers.vary, /origin/i, family.name);
      const unknown = await preflight(family.url, 'https://unknown.example', family.method);
      t.equal(unknown.status, 403, `${family.name}: an origin no tenant allows`);
      t.notOk(unknown.headers['access-control-allow-origin'], family.name);
    }
    // Open311 names its tenant in the path: only that tenant's origins pass.
    t.equal((await preflight('/open311/v2/acme/services.json', OTHER, 'GET')).status, 403, 'another tenant\'s origin on Open311');
    t.equal((await preflight('/open311/v2/nobody/services.json', CITY, 'GET')).status, 403, 'an unknown tenant: the same answer');
    t.equal((await preflight('/api/occurrences/public_submit', 'null')).status, 404, 'a malformed origin: not a CORS preflight (as before)');
    t.equal((await preflight('/api/admin/public-origins', CITY, 'PUT')).status, 404, 'other routes answer no CORS (as before)');
  });

  t.test('requests: CORS headers for the tenant\'s own origins only', async (t) => {
    for (const family of families) {
      const call = (origin: string, extra: Record<string, string> = {}) => tp.request({
        method: family.method, url: family.url, tenant: family.tenant, payload: family.payload, headers: { origin, ...extra },
      });
      const allowed = await call(CITY, { 'sec-fetch-site': 'cross-site' });
      t.ok(allowed.status < 500 && allowed.status !== 403, `${family.name}: ${allowed.status}`);
      t.equal(allowed.headers['access-control-allow-origin'], CITY, family.name);
      t.match(allowed.headers.vary, /origin/i, family.name);

      const plain = await call(OTHER);
      t.notOk(plain.headers['access-control-allow-origin'], `${family.name}: another origin, not from a browser: answered without CORS`);
      t.not(plain.status, 403, family.name);
      t.match(plain.headers.vary, /origin/i, family.name);

      const browser = await call(OTHER, { 'sec-fetch-site': 'cross-site' });
      t.equal(browser.status, 403, `${family.name}: a browser's cross-origin request from another tenant's origin`);
      t.equal(browser.body.code, 'ORIGIN_NOT_ALLOWED', family.name);
      t.notOk(browser.headers['access-control-allow-origin'], family.name);

      const sameOrigin = await call(tp.url(''), { 'sec-fetch-site': 'same-origin' });
      t.not(sameOrigin.status, 403, `${family.name}: the platform's own pages`);
      t.notOk(sameOrigin.headers['access-control-allow-origin'], family.name);
    }
    const before = (await tp.platform.core.pool.query(`SELECT count(*)::int AS n FROM occurrences WHERE tenant_id = 'acme'`)).rows[0].n;
    const refused = await tp.request({ method: 'POST', url: '/api/occurrences/public_submit', tenant: 'acme', payload: report(type.id), headers: { origin: OTHER, 'sec-fetch-site': 'same-site' } });
    t.equal(refused.status, 403);
    t.equal((await tp.platform.core.pool.query(`SELECT count(*)::int AS n FROM occurrences WHERE tenant_id = 'acme'`)).rows[0].n, before, 'a refused submission stores nothing');
    const noOrigin = await tp.request({ url: '/api/occurrence-types/', tenant: 'acme' });
    t.equal(noOrigin.status, 200, 'no Origin: as before');
    t.notOk(noOrigin.headers['access-control-allow-origin']);
    const admin = await tp.request({ url: '/api/admin/public-origins', token: acme.token, headers: { origin: CITY } });
    t.notOk(admin.headers['access-control-allow-origin'], 'no CORS on other routes');

    // A cleared list takes effect at once in this process.
    await tp.request({ method: 'PUT', url: '/api/admin/public-origins', token: other.token, payload: { origins: [] } });
    t.equal((await preflight('/api/occurrences/public_submit', OTHER)).status, 403, 'a removed origin no longer passes');
  });

  t.test('a real cross-origin fetch from Chromium: allowed, then not', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing` }, async (t) => {
    const api = tp.url('');
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>City reports</title></head>
<body><main><h1>Report a problem</h1><ul id="log" aria-label="Results"></ul></main>
<script>
  window.run = async () => {
    const log = document.getElementById('log');
    const line = (text) => { const item = document.createElement('li'); item.textContent = text; log.append(item); };
    const headers = { 'x-tenant-id': 'acme' };
    try {
      const types = await (await fetch(${JSON.stringify(api)} + '/api/occurrence-types/', { headers })).json();
      line('types: ' + types.items.map((type) => type.name).join(', '));
      const submitted = await fetch(${JSON.stringify(api)} + '/api/occurrences/public_submit', {
        method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(${JSON.stringify(report(type.id))}),
      });
      const body = await submitted.json();
      line('submitted: ' + submitted.status + ' ' + body.reference);
      return { types: types.items.map((type) => type.name), status: submitted.status, reference: body.reference };
    } catch (error) {
      line('failed: ' + error.name);
      return { error: error.name };
    }
  };
</script></body></html>`;
    const host = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => { host.closeAllConnections(); host.close(() => resolve()); }));
    const origin = `http://localhost:${(host.address() as AddressInfo).port}`;
    t.not(new URL(origin).origin, new URL(api).origin, 'the page is on another origin');

    t.equal((await tp.request({ method: 'PUT', url: '/api/admin/public-origins', token: acme.token, payload: { origins: [CITY, origin] } })).status, 200);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
    t.teardown(() => browser.close());
    const tab = await browser.newPage({ viewport: { width: 800, height: 400 } });
    tab.setDefaultTimeout(10_000);
    await tab.goto(`${origin}/report`);
    const allowed = await tab.evaluate(() => (window as unknown as { run(): Promise<Record<string, unknown>> }).run());
    t.same(allowed.types, ['Pothole'], 'the types are read cross-origin');
    t.equal(allowed.status, 201, 'the report is submitted cross-origin');
    t.match(allowed.reference, /^\S+$/);
    const stored = await tp.platform.core.pool.query('SELECT title FROM occurrences WHERE reference = $1', [allowed.reference]);
    t.equal(stored.rows[0]?.title, 'Broken lamp');
    await t.resolves(tab.getByRole('listitem').filter({ hasText: 'submitted: 201' }).waitFor());
    const axe = (await import('node:fs')).readFileSync(path.resolve('node_modules/axe-core/axe.min.js'), 'utf8');
    await tab.addScriptTag({ content: axe });
    const violations = await tab.evaluate(async () => (await (window as unknown as { axe: { run(): Promise<{ violations: { id: string }[] }> } }).axe.run()).violations.map((v) => v.id));
    t.same(violations, [], 'no axe violation');
    const shots = path.resolve('.tap/screenshots/tenancy');
    mkdirSync(shots, { recursive: true });
    await tab.screenshot({ path: path.join(shots, 'public-origins-allowed.png') });

    t.equal((await tp.request({ method: 'PUT', url: '/api/admin/public-origins', token: acme.token, payload: { origins: [CITY] } })).status, 200);
    const count = async () => (await tp.platform.core.pool.query(`SELECT count(*)::int AS n FROM occurrences WHERE tenant_id = 'acme'`)).rows[0].n;
    const before = await count();
    await tab.reload();
    const refused = await tab.evaluate(() => (window as unknown as { run(): Promise<Record<string, unknown>> }).run());
    t.equal(refused.error, 'TypeError', 'the browser refuses the cross-origin read once the origin is removed');
    t.equal(await count(), before, 'nothing submitted');
    await tab.screenshot({ path: path.join(shots, 'public-origins-refused.png') });
  });
});

t.test('the origin directory reads every tenant\'s pairs when its owner is a plain role, not a superuser', async (t) => {
  const tp = await startTestPlatform(t, { manifest: MANIFEST });
  for (const tenant of ['dir-a', 'dir-b']) {
    const admin = await tenantWithAdmin(tp, tenant);
    const put = await tp.request({ method: 'PUT', url: '/api/admin/public-origins', token: admin.token, payload: { origins: [`https://${tenant}.example`] } });
    t.equal(put.status, 200);
  }
  const { pool } = tp.platform.core;
  const owner = `dir_owner_${process.pid}_${Date.now()}`;
  await pool.query(`CREATE ROLE ${owner} NOLOGIN NOSUPERUSER NOBYPASSRLS`);
  t.teardown(async () => {
    await pool.query(`ALTER FUNCTION tenancy_public_origin_directory() OWNER TO CURRENT_USER`).catch(() => {});
    await pool.query(`DROP OWNED BY ${owner}`).catch(() => {});
    await pool.query(`DROP ROLE IF EXISTS ${owner}`).catch(() => {});
  });
  await pool.query(`GRANT SELECT ON tenants, tenant_public_origins TO ${owner}`);
  await pool.query(`ALTER FUNCTION tenancy_public_origin_directory() OWNER TO ${owner}`);
  const { rows } = await pool.query('SELECT origin, tenant_id FROM tenancy_public_origin_directory() ORDER BY tenant_id');
  t.same(rows, [{ origin: 'https://dir-a.example', tenant_id: 'dir-a' }, { origin: 'https://dir-b.example', tenant_id: 'dir-b' }], 'both tenants\' pairs under forced row-level security');
  const direct = await pool.query(`SET ROLE ${owner}; SELECT count(*)::int AS n FROM tenant_public_origins; RESET ROLE`);
  t.equal((direct as unknown as { rows: { n: number }[] }[])[1].rows[0].n, 0, 'the same role reading the table directly sees no row');
});

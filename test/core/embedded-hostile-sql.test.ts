// `npm start` on the embedded default while a member with no role sends SQL
// whose constant expressions PostgreSQL folds while planning (seconds of
// PGlite per column): the request answers 422 SQL_TIMEOUT after its budget,
// /health answers throughout, another tenant's writes are all kept, and the
// platform goes on by itself, also after a kill -9 of the whole process.
// It starts on a copy of the migrated template (the first start of a fresh
// install is test/core/embedded.test.ts's).
// Runs in its own process: the embedded database (PGlite) runs in this process.
import { rm } from 'node:fs/promises';
import t from 'tap';
import { call, migratedDataDir, serve, stop, TOKEN_LINE, type Served } from '../embedded-serve.ts';
import { until } from '../harness.ts';

const HOSTILE_SQL = `SELECT length(regexp_replace(repeat('ab', 20000000), 'b', 'cc', 'g')) AS n1,
  length(regexp_replace(repeat('ab', 20000001), 'b', 'cc', 'g')) AS n2,
  length(regexp_replace(repeat('ab', 20000002), 'b', 'cc', 'g')) AS n3`;

t.test('hostile tenant SQL on the embedded default', async (t) => {
  const options = { env: { TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS: '1' } };
  const dataDir = await migratedDataDir(options);
  let served: Served | undefined;
  t.teardown(async () => {
    if (served) await stop(served);
    await rm(dataDir, { recursive: true, force: true });
  });
  served = await serve(dataDir, options);
  const first = served;
  const admin = await until(async () => TOKEN_LINE.exec(first.output())?.[1], 'the generated admin token', 10_000);
  const as = (token: string, method: string, url: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    if (url.startsWith('/api/v1/')) headers['x-tenant-id'] = 'acme';
    return fetch(`${served!.base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(60_000) })
      .then(async (res) => ({ status: res.status, body: (await res.json().catch(() => ({}))) as any }));
  };
  for (const id of ['acme', 'other']) t.equal((await call(first.base, '/api/admin/tenants', { method: 'POST', token: admin, body: { id } })).status, 201);
  await call(first.base, '/api/admin/users', { method: 'POST', token: admin, body: { sub: 'mo', display_name: 'Mo', organizations: ['acme'], roles: [] } });
  await call(first.base, '/api/admin/users', { method: 'POST', token: admin, body: { sub: 'oz', display_name: 'Oz', organizations: ['other'], roles: ['admin'] } });
  const member = (await call(first.base, '/api/admin/users/mo/tokens', { method: 'POST', token: admin })).body.access_token as string;
  const otherAdmin = (await call(first.base, '/api/admin/users/oz/tokens', { method: 'POST', token: admin })).body.access_token as string;

  // While the hostile statement runs: /health is polled, and the other tenant keeps creating clients.
  let running = true;
  let slowestHealth = 0;
  const health = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${first.base}/health`, { signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      slowestHealth = Math.max(slowestHealth, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const created: string[] = [];
  const writer = (async () => {
    for (let i = 0; running; i++) {
      const res = await fetch(`${first.base}/api/admin/clients`, {
        method: 'POST', headers: { authorization: `Bearer ${otherAdmin}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: `kiosk-${i}` }),
        signal: AbortSignal.timeout(60_000),
      }).catch(() => undefined);
      if (res?.status === 201) created.push(`kiosk-${i}`);
    }
  })();

  const started = performance.now();
  const review = await as(member, 'POST', '/api/v1/ai/review-sql', { sql: HOSTILE_SQL });
  const elapsed = performance.now() - started;
  t.equal(review.status, 422, JSON.stringify(review.body));
  t.equal(review.body.code, 'SQL_TIMEOUT');
  t.notMatch(JSON.stringify(review.body), /regexp_replace/, 'the statement is not echoed');
  t.ok(elapsed < 15_000, `answered soon after its 1 s budget (${Math.round(elapsed)} ms; about a minute without the budget)`);
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // writes go on after the reopen
  running = false;
  await Promise.all([health, writer]);
  t.ok(slowestHealth < 5_000, `/health answered throughout (slowest ${Math.round(slowestHealth)} ms)`);

  const listed = async (base: string) => {
    const res = await fetch(`${base}/api/admin/clients?limit=200`, { headers: { authorization: `Bearer ${otherAdmin}` } });
    return ((await res.json()) as { items: { name: string }[] }).items.map((client) => client.name);
  };
  t.ok(created.length > 0, `${created.length} clients were created around the stop`);
  let names = await listed(first.base);
  t.same(created.filter((name) => !names.includes(name)), [], 'every acknowledged write is kept');
  const again = await as(member, 'POST', '/api/v1/ai/review-sql', { sql: 'SELECT 1 AS one' });
  t.equal(again.status, 200, 'the member is served again');

  // kill -9 of the whole process: the next start recovers the same data by itself.
  first.child.kill('SIGKILL');
  await first.exitCode;
  served = await serve(dataDir, options);
  names = await listed(served.base);
  t.same(created.filter((name) => !names.includes(name)), [], 'and after a kill -9 and a restart');
});

// The embedded default end to end: `platform serve` with no DATABASE_URL runs
// PGlite in-process on a fresh data dir, generates its master key and a
// super-admin token (printed once), serves the API, stops cleanly on SIGTERM,
// and comes back with its data. The CLI works beside it and without it.
// Runs in its own process: the embedded database (PGlite) runs in this process.
import t from 'tap';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, until } from '../harness.ts';
import { TOKEN_LINE, call, embeddedEnv, serve, stop, type Served } from '../embedded-serve.ts';

/** Every server started: the teardown kills those still running and waits for them before removing their data dir. */
const servers: Served[] = [];

async function start(dataDir: string): Promise<Served> {
  const served = await serve(dataDir);
  servers.push(served);
  return served;
}

/** Runs a CLI command against the same data dir (through the running server's socket, or PGlite opened by the command). */
async function cli(dataDir: string, ...args: string[]) {
  const result = await runCli([...args, '--json'], { env: embeddedEnv(dataDir, 0), inheritEnv: false });
  if (result.code !== 0) throw new Error(`platform ${args.join(' ')}: exit ${result.code}: ${result.stderr}`);
  return result.json;
}

const exists = (file: string) => access(file).then(() => true, () => false);

t.test('npm start with no DATABASE_URL: embedded PGlite, first start, CLI, restart with data', async (t) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'platform-embedded-'));
  t.teardown(async () => {
    for (const { child } of servers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(servers.map(({ exitCode }) => exitCode));
    await rm(dataDir, { recursive: true, force: true });
  });

  const first = await start(dataDir);
  const token = await until(async () => TOKEN_LINE.exec(first.output())?.[1], 'the generated admin token on stdout', 5_000);
  t.equal(first.output().match(new RegExp(TOKEN_LINE.source, 'g'))?.length, 1, 'the token is printed once');
  t.ok(await exists(path.join(dataDir, 'master.key')), 'a master key is generated into the data dir');
  t.ok(await exists(path.join(dataDir, 'pglite')), 'the database lives in the data dir');

  const health = await call(first.base, '/health');
  t.equal(health.status, 200);
  const ready = await call(first.base, '/readyz');
  t.equal(ready.status, 200);
  t.equal(ready.body.status, 'ready');
  t.ok(Object.keys(ready.body.checks).includes('database'), 'readiness checks the database');
  t.same(Object.entries(ready.body.checks).filter(([, value]) => value !== 'ok'), [], 'every readiness check is ok');
  const docs = await call(first.base, '/docs');
  t.equal(docs.status, 200);
  t.match(docs.body, /swagger/i);

  const viewer = await call(first.base, '/graphql', { method: 'POST', token, body: { query: '{ viewer { kind } }' } });
  t.equal(viewer.status, 200);
  t.same(viewer.body, { data: { viewer: { kind: 'super_admin' } } });

  const created = await call(first.base, '/api/admin/tenants', { method: 'POST', token, body: { id: 'acme' } });
  t.equal(created.status, 201);
  t.equal(created.body.id, 'acme');

  // The CLI beside the running server goes through its socket (PGlite cannot open the dir twice).
  t.equal((await cli(dataDir, 'tenants', 'create', 'from-cli')).id, 'from-cli');
  const listed = await call(first.base, '/api/admin/tenants', { token });
  t.same(listed.body.items.map((tenant: { id: string }) => tenant.id).sort(), ['acme', 'from-cli'], 'the server sees what the CLI wrote');

  // A second server on the same data dir would corrupt it: it refuses, in one line.
  const twice = await runCli(['serve'], { env: embeddedEnv(dataDir, 0), inheritEnv: false });
  t.equal(twice.code, 1, 'a second server exits 1');
  t.match(twice.stderr, /^error: the embedded database in .* is in use by process \d+ \(server at postgres:/);

  t.equal(await stop(first), 0, 'SIGTERM drains and exits 0');
  t.notOk(await exists(path.join(dataDir, 'embedded.json')), 'the data dir is released');

  // With no server, the CLI opens PGlite itself.
  const offline = await cli(dataDir, 'tenants', 'list');
  t.same(offline.items.map((tenant: { id: string }) => tenant.id).sort(), ['acme', 'from-cli'], 'the CLI reads the data with no server running');

  const second = await start(dataDir);
  const again = await call(second.base, '/api/admin/tenants', { token });
  t.equal(again.status, 200, 'the first token still works');
  t.same(again.body.items.map((tenant: { id: string }) => tenant.id).sort(), ['acme', 'from-cli'], 'the data survived the restart');
  t.equal(await stop(second), 0);
  t.notMatch(second.output(), /Generated super-admin token/, 'no new token on restart (all its output read, after exit)');
});

// core.tenantSql on the embedded database (PGlite: one backend session runs
// every statement of the process, and advisory locks count nothing there):
// one request's tenant statement runs at a time in the process, so another
// request, of any tenant, gets 429 SQL_CONCURRENCY_LIMIT with Retry-After at
// once instead of queueing behind it; once it ends the next one runs.
// Runs in its own process: the embedded database (PGlite) runs in this process.
import { rm } from 'node:fs/promises';
import t from 'tap';
import { loadConfig } from '../../core/config.ts';
import { migrationSourcesOf } from '../../core/plugin-loader.ts';
import { embeddedTestDataDir } from '../../core/sdk/embedded-template.ts';
import { createCoreServices } from '../../core/services.ts';

t.test('embedded database: one request\'s tenant statement at a time', async (t) => {
  // A copy of the core's migrated template: the boot finds every migration applied.
  const dataDir = await embeddedTestDataDir(migrationSourcesOf([]));
  const config = loadConfig({ PLATFORM_DATA_DIR: dataDir, TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS: '3', LOG_LEVEL: 'silent' });
  const handle = await createCoreServices(config, { mode: 'server', plugins: [] });
  t.teardown(async () => {
    await handle.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  t.ok(handle.embedded, 'no DATABASE_URL: the embedded default');
  const { tenantSql } = handle.core;

  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const first = tenantSql.run('acme', { mode: 'interactive' }, async ({ client }) => {
    const { rows } = await client.query<{ statement_timeout: string }>('SHOW statement_timeout');
    started();
    await held;
    return rows[0]!.statement_timeout;
  });
  await running;
  await t.rejects(tenantSql.run('beta', { mode: 'interactive' }, async () => 'second'),
    { output: { statusCode: 429, payload: { code: 'SQL_CONCURRENCY_LIMIT' }, headers: { 'Retry-After': '3' } } } as never,
    'another tenant\'s request is refused at once, not queued behind the running statement');
  release();
  t.equal(await first, '3s', 'the running statement had the interactive budget');
  t.equal(await tenantSql.run('beta', { mode: 'interactive' }, async () => 'second'), 'second', 'the next request runs once it ended');
});

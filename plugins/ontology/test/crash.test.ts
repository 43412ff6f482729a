// A worker killed mid-sync (a child process running the platform, SIGKILL
// while its bulk upsert is in flight): pg-boss retries the run in another
// process once the heartbeat stops, and the entities end exactly as an
// uninterrupted sync makes them: one per row, with the snapshot's values.
// Runs in its own process: it kills and restarts platform processes; a leak would hold a shared one.
import { spawn } from 'node:child_process';
import t from 'tap';
import pg from 'pg';
import { ROOT_DIR } from '../../../core/paths.ts';
import { startTestPlatform, until } from 'agent-platform/sdk/testing';
import { stored } from '../../pipelines-sources/test/helpers.ts';
import { LIGHTS, lightMappings, ontologyPlatform, streetLight, waitRun } from './helpers.ts';

const ROWS = 100_000;

t.test('a sync killed mid-upsert is retried elsewhere; the same entities', async (t) => {
  const { tp, acme, asAcme, lake } = await ontologyPlatform(t, {}, { workers: false });
  await lake.ensureDataset('acme', {
    datasetId: LIGHTS, primaryKey: ['id'], producer: { kind: 'source_stream', id: 'test' },
    columns: [{ name: 'id', type: 'text' }, { name: 'label', type: 'text' }, { name: 'watts', type: 'bigint' }, { name: 'email', type: 'text' }],
  });
  await lake.write('acme', LIGHTS, {
    mode: 'overwrite', primaryKey: ['id'], uniqueKeys: true,
    source: { kind: 'query', sql: `SELECT 'L' || g, 'light ' || g, g::bigint, NULL::text FROM generate_series(1, ${ROWS}) g`, properties: ['id', 'label', 'watts', 'email'] },
  });
  await asAcme('POST', '/api/v1/ontology/entity-types', streetLight);
  const backing = (await asAcme('POST', '/api/v1/backing-datasets', { name: 'lights', dataset_id: LIGHTS, entity_type: 'street_light', mappings: lightMappings, key_columns: ['id'] })).body;

  const child = spawn(process.execPath, ['core/cli/bin.ts', 'serve'], {
    cwd: ROOT_DIR, env: { ...tp.env, PORT: '0', LOG_LEVEL: 'silent', JOBS_POLL_INTERVAL_MS: '100' }, stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const run = (await asAcme('POST', `/api/v1/backing-datasets/${backing.id}/sync`)).body;
  const watcher = new pg.Client({ connectionString: tp.databaseUrl });
  await watcher.connect();
  t.teardown(() => watcher.end());
  await until(async () => (await watcher.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND query LIKE '%INSERT INTO ontology_entities%'`)).rowCount,
    'the child to be upserting', 60_000);
  child.kill('SIGKILL');
  await exited;
  t.equal((await stored(tp, 'SELECT count(*)::int AS n FROM ontology_entities'))[0].n, 0, 'nothing of the killed upsert committed');

  const next = await startTestPlatform(t, { databaseUrl: tp.databaseUrl, listen: true, env: { ...tp.env, JOBS_SUPERVISE_INTERVAL_SECONDS: '1' } });
  const as = (method: string, url: string) => next.request({ method, url, token: acme.token, tenant: 'acme' });
  const settled = await waitRun(as, backing.id, run.run_id, 180_000);
  t.match(settled, { status: 'succeeded', attempts: 2, rows_synced: ROWS, replay_reason: 'first_sync' });
  const [summary] = await stored(tp, `SELECT count(*)::int AS n, count(DISTINCT key)::int AS keys,
    count(*) FILTER (WHERE properties = jsonb_build_object('light_id', key_values->>'light_id', 'name', 'light ' || substr(key_values->>'light_id', 2), 'watts', substr(key_values->>'light_id', 2)::bigint))::int AS exact
    FROM ontology_entities`);
  t.same(summary, { n: ROWS, keys: ROWS, exact: ROWS }, 'every row once, with its values');
  const logs = (await as('GET', `/api/v1/backing-datasets/${backing.id}/sync-history/${run.run_id}/logs`)).body.items.map((l: { message: string }) => l.message);
  t.ok(logs.some((m: string) => m.startsWith('attempt 2: replaying')));
});

// A source with no enabled stream is never synced: a CSV source discovered
// without apply has no stream, so its sync (manual, a schedule's trigger) is
// refused with 409 NO_ENABLED_STREAMS and queues nothing, and a schedule's
// occurrence is skipped with that reason; once the discovery is applied the
// sync lands the rows, and disabling the stream refuses it again.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { sourcesPlatform } from './helpers.ts';

const CSV = 'id,name\n1,a\n2,b\n3,c\n';

t.test('no enabled stream: the sync is refused, the scheduled occurrence skipped, nothing queued', async (t) => {
  const server = createServer((request, response) => {
    if (request.url === '/data.csv') response.writeHead(200, { 'content-type': 'text/csv' }).end(CSV);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/data.csv`;
  const { tp, asAcme } = await sourcesPlatform(t, { PIPELINES_SYNC_RETRY_LIMIT: '0' }, { workers: true });

  const sourceId = (await asAcme('POST', '/api/v1/sources', { name: 'sheet', pattern_id: 'csv', source_config: { url, stream_name: 'prices' } })).body.id as string;
  const asked = (await asAcme('POST', '/api/v1/sources/discover', { source_id: sourceId })).body;
  const found = await until(async () => {
    const status = (await asAcme('GET', `/api/v1/sources/discover/status/${asked.workflow_id}`)).body;
    return status.status === 'succeeded' || status.status === 'failed' ? status : undefined;
  }, 'discovery', 60_000);
  t.equal(found.status, 'succeeded', found.error ?? '');
  t.same(found.streams.map((s: { name: string }) => s.name), ['prices'], 'the discovery found the stream');
  t.same((await asAcme('GET', `/api/v1/sources/${sourceId}/streams`)).body.items, [], 'without apply, no stream was created');

  const refused = await asAcme('POST', `/api/v1/sources/${sourceId}/sync`);
  t.equal(refused.status, 409);
  t.equal(refused.body.code, 'NO_ENABLED_STREAMS');
  t.match(refused.body.message, /no enabled stream.*discover its streams and enable them \(or apply the discovery/);
  const named = await asAcme('POST', `/api/v1/sources/${sourceId}/sync`, { streams: ['prices'] });
  t.equal(named.body.code, 'NO_ENABLED_STREAMS');
  t.match(named.body.message, /None of the streams named \(prices\)/);

  const base = `/api/v1/sources/${sourceId}/schedule`;
  t.equal((await asAcme('PUT', base, { cron: '0 3 * * *', timezone: 'UTC' })).status, 200);
  const triggered = await asAcme('POST', `${base}/trigger`);
  t.equal(triggered.status, 409);
  t.equal(triggered.body.code, 'NO_ENABLED_STREAMS');

  // The timer comes due now: the occurrence is skipped with the reason, and the schedule stays armed.
  const client = new pg.Client({ connectionString: tp.databaseUrl });
  client.on('error', () => {});
  await client.connect();
  t.teardown(() => client.end());
  await client.query(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [`schedule:pipelines-sources.source:acme:${sourceId}`]);
  const fired = await until(async () => {
    const read = (await asAcme('GET', base)).body;
    return read.last_outcome ? read : undefined;
  }, 'the timer to fire', 60_000);
  t.match(fired.last_outcome, /^skipped: NO_ENABLED_STREAMS: The source has no enabled stream to sync: discover/);
  t.equal(fired.last_sync_run_id, null);
  t.match(fired, { paused: false });
  t.ok(fired.next_run_at, 'armed for the next occurrence');

  t.same((await asAcme('GET', `/api/v1/sources/${sourceId}/sync-history`)).body.items, [], 'no run was queued or recorded');
  t.equal((await asAcme('GET', `/api/v1/sources/${sourceId}/sync/status`)).body.run, null);

  // The discovery applied (its streams as refresh-schema), the sync lands the rows.
  t.equal((await asAcme('POST', `/api/v1/sources/${sourceId}/streams/refresh-schema`, { streams: found.streams })).status, 200);
  const started = await asAcme('POST', `/api/v1/sources/${sourceId}/sync`);
  t.equal(started.status, 202);
  const run = await until(async () => {
    const status = (await asAcme('GET', `/api/v1/sources/${sourceId}/sync/status`)).body;
    return status.run?.is_terminal ? status.run : undefined;
  }, 'the sync', 60_000);
  t.match(run, { id: started.body.id, status: 'succeeded', rows_read: 3 });

  // Every stream disabled: refused again.
  const [stream] = (await asAcme('GET', `/api/v1/sources/${sourceId}/streams`)).body.items;
  t.equal((await asAcme('PATCH', `/api/v1/sources/${sourceId}/streams/${stream.id}`, { enabled: false })).status, 200);
  t.equal((await asAcme('POST', `/api/v1/sources/${sourceId}/sync`)).body.code, 'NO_ENABLED_STREAMS');
  t.equal((await asAcme('GET', `/api/v1/sources/${sourceId}/sync-history`)).body.items.length, 1);
});

// The platform_events pattern: a tenant's own event stream as a source,
// incremental by stream position; another tenant's events never appear.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { sourcesPlatform } from './helpers.ts';

t.test('platform_events: the tenant\'s stream, in order, incrementally; never another tenant\'s', async (t) => {
  const { asAcme, asBeta } = await sourcesPlatform(t, {}, { workers: true });
  const setUp = async (as: typeof asAcme) => {
    const sourceId = (await as('POST', '/api/v1/sources', { name: 'own', pattern_id: 'platform_events', source_config: {} })).body.id;
    const discovery = (await as('POST', '/api/v1/sources/discover', { source_id: sourceId, apply: true })).body;
    await until(async () => (await as('GET', `/api/v1/sources/discover/status/${discovery.workflow_id}`)).body.status === 'succeeded', 'discovery', 60_000);
    return sourceId as string;
  };
  const sync = async (as: typeof asAcme, sourceId: string) => {
    const started = (await as('POST', `/api/v1/sources/${sourceId}/sync`)).body;
    return until(async () => {
      const status = (await as('GET', `/api/v1/sources/${sourceId}/sync/status`)).body;
      return status.run?.id === started.id && status.run.is_terminal ? status.run : undefined;
    }, 'the sync', 60_000);
  };

  const acmeSource = await setUp(asAcme);
  const stream = (await asAcme('GET', `/api/v1/sources/${acmeSource}/streams`)).body.items[0];
  t.match(stream, { name: 'events', namespace: null, primary_key: ['seq'], destination: 'raw.acme.own_events' });
  t.equal((await asAcme('PATCH', `/api/v1/sources/${acmeSource}/streams/${stream.id}`, { sync_mode: 'incremental', cursor_field: 'position', write_mode: 'append_dedup' })).status, 200);
  t.equal((await sync(asAcme, acmeSource)).status, 'succeeded');
  // The first sync made a snapshot, which emitted dataset.snapshot_created: the second sync reads it.
  const second = await sync(asAcme, acmeSource);
  t.equal(second.status, 'succeeded');
  t.ok(second.rows_added >= 1);
  const rows = (await asAcme('GET', '/api/v1/datasets/raw.acme.own_events/preview?limit=1000')).body.rows;
  const snapshotEvents = rows.filter((r: { type: string }) => r.type === 'dataset.snapshot_created');
  t.ok(snapshotEvents.some((r: { data: { dataset_id: string } }) => r.data.dataset_id === 'raw.acme.own_events'), 'the stream holds the first sync\'s own event');
  const seqs = rows.map((r: { seq: number }) => r.seq);
  t.equal(new Set(seqs).size, seqs.length, 'each event once');
  t.ok(rows.every((r: { position: string }) => /^\d{20}-\d{19}$/.test(r.position)), 'each with its position in the stream');

  const betaSource = await setUp(asBeta);
  await sync(asBeta, betaSource);
  const betaRows = (await asBeta('GET', '/api/v1/datasets/raw.beta.own_events/preview?limit=1000')).body.rows;
  t.notOk(betaRows.some((r: { data: { dataset_id?: string } | null }) => r.data?.dataset_id?.startsWith('raw.acme.')), 'beta never sees acme\'s events');
});

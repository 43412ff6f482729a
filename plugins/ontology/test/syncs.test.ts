// Fingerprinted syncs, one rule a test: the
// trigger's answer, unchanged → skipped, a failed run keeps the applied
// fingerprint, a changed effective spec replays with effective_spec_changed,
// force replays with its reason; exact-run polling; lineage of entities.
import t from 'tap';
import { stored } from '../../pipelines-sources/test/helpers.ts';
import { LIGHTS, lightRows, lightsBacking, ontologyPlatform, syncAndWait, writeLights } from './helpers.ts';

t.test('the trigger returns the persisted run, its attempted fingerprint and force; the exact run ends with bulk jobs', async (t) => {
  const { tp, asAcme, lake } = await ontologyPlatform(t);
  const snapshot = await writeLights(lake, lightRows(3));
  const backing = await lightsBacking(asAcme);
  const { trigger, run } = await syncAndWait(asAcme, backing.id);
  t.match(trigger, { run_id: String, status: 'queued', force: false, force_replay: false, is_terminal: false, sync_contract_version: 2 });
  t.match(trigger.attempted_sync_spec_fingerprint, /^sha256:[0-9a-f]{64}$/);
  t.match(run, {
    id: trigger.run_id, status: 'succeeded', is_terminal: true, rows_synced: 3, replay_reason: 'first_sync', effective_spec_changed: false,
    attempted_sync_spec_fingerprint: trigger.attempted_sync_spec_fingerprint, applied_sync_spec_fingerprint: trigger.attempted_sync_spec_fingerprint,
    snapshot_id_exact: snapshot, snapshot_id: Number(snapshot),
  });
  t.same(run.bulk_jobs, [
    { job_id: `${run.id}:upsert`, operation: 'upsert', submitted_count: 3, completed_count: 3 },
    { job_id: `${run.id}:delete_stale`, operation: 'delete_stale', submitted_count: 0, completed_count: 0 },
  ]);
  const entities = await stored(tp, 'SELECT tenant_id, entity_type, key, properties, dataset_id, snapshot_id::text, source_row_key FROM ontology_entities ORDER BY key');
  t.same(entities[0], {
    tenant_id: 'acme', entity_type: 'street_light', key: '["L1"]', properties: { light_id: 'L1', name: 'light 1', watts: 40 },
    dataset_id: 'raw.acme.lights', snapshot_id: snapshot, source_row_key: '["L1"]',
  }, 'keyed by the type\'s keys, with lineage to the snapshot row');
  t.equal(entities.length, 3);
  const detail = (await asAcme('GET', `/api/v1/backing-datasets/${backing.id}`)).body;
  t.match(detail, { applied_sync_spec_fingerprint: trigger.attempted_sync_spec_fingerprint, applied_snapshot_id_exact: snapshot });
  const logs = (await asAcme('GET', `/api/v1/backing-datasets/${backing.id}/sync-history/${run.id}/logs`)).body.items.map((l: { message: string }) => l.message);
  t.ok(logs.some((m: string) => m.startsWith('succeeded')));
  const capabilities = await asAcme('GET', '/api/v1/backing-datasets/capabilities');
  t.same(capabilities.body, { sync_contract_version: 2, supports_exact_run_polling: true, supports_force_replay: true });
});

t.test('an unchanged snapshot with an unchanged effective spec is skipped with rows_synced 0', async (t) => {
  const { tp, asAcme, lake } = await ontologyPlatform(t);
  await writeLights(lake, lightRows(3));
  const backing = await lightsBacking(asAcme);
  const first = await syncAndWait(asAcme, backing.id);
  const second = await syncAndWait(asAcme, backing.id);
  t.equal(second.trigger.attempted_sync_spec_fingerprint, first.trigger.attempted_sync_spec_fingerprint);
  t.match(second.run, { status: 'skipped', rows_synced: 0, is_terminal: true, replay_reason: null, effective_spec_changed: false, applied_sync_spec_fingerprint: first.run.applied_sync_spec_fingerprint });
  t.same(second.run.bulk_jobs, [], 'no bulk job ran');
  const events = await stored(tp, `SELECT type FROM events WHERE type LIKE 'ontology.sync.%' ORDER BY time`);
  t.same(events.map((e) => e.type), ['ontology.sync.completed', 'ontology.sync.skipped']);
  // A new snapshot with the same spec replays (snapshot_changed) and applies only what changed.
  await writeLights(lake, lightRows(3, (i) => (i === 2 ? 'renamed' : `light ${i}`)));
  const third = await syncAndWait(asAcme, backing.id);
  t.match(third.run, { status: 'succeeded', replay_reason: 'snapshot_changed', effective_spec_changed: false, rows_synced: 1 });
});

t.test('a failed run keeps the previous applied fingerprint', async (t) => {
  const { tp, asAcme, lake } = await ontologyPlatform(t);
  await writeLights(lake, lightRows(3));
  const backing = await lightsBacking(asAcme);
  const first = await syncAndWait(asAcme, backing.id);
  // A mapping change (a new effective spec) and a snapshot lacking a required property: the run fails.
  t.equal((await asAcme('PATCH', `/api/v1/backing-datasets/${backing.id}`, { mappings: [...lightMappingsWithout('watts')] })).status, 200);
  await writeLights(lake, [...lightRows(2), { id: 'L3', label: null, watts: 1, email: null }]);
  const failed = await syncAndWait(asAcme, backing.id);
  t.not(failed.trigger.attempted_sync_spec_fingerprint, first.run.applied_sync_spec_fingerprint);
  t.match(failed.run, { status: 'failed', is_terminal: true, applied_sync_spec_fingerprint: first.run.applied_sync_spec_fingerprint });
  t.match(failed.run.error, /lack a value for a required property/);
  const detail = (await asAcme('GET', `/api/v1/backing-datasets/${backing.id}`)).body;
  t.equal(detail.applied_sync_spec_fingerprint, first.run.applied_sync_spec_fingerprint, 'the backing dataset still shows the last applied fingerprint');
  const entities = await stored(tp, `SELECT properties FROM ontology_entities WHERE key = '["L1"]'`);
  t.same(entities[0].properties, { light_id: 'L1', name: 'light 1', watts: 40 }, 'entities as the last success left them');
  t.equal((await asAcme('GET', `/api/v1/backing-datasets/${backing.id}/health`)).body.status, 'degraded');
  const events = await stored(tp, `SELECT type FROM events WHERE type = 'ontology.sync.failed'`);
  t.equal(events.length, 1);
});

t.test('a changed mapping replays an unchanged snapshot with effective_spec_changed', async (t) => {
  const { tp, asAcme, lake } = await ontologyPlatform(t);
  const snapshot = await writeLights(lake, lightRows(3));
  const backing = await lightsBacking(asAcme);
  const first = await syncAndWait(asAcme, backing.id);
  const pendingBefore = (await asAcme('GET', '/api/v1/backing-datasets/pending-syncs')).body.items;
  t.same(pendingBefore, [], 'nothing pending after a sync');
  t.equal((await asAcme('PATCH', `/api/v1/backing-datasets/${backing.id}`, { mappings: lightMappingsWithout('watts') })).status, 200);
  const pending = (await asAcme('GET', '/api/v1/backing-datasets/pending-syncs')).body.items;
  t.match(pending, [{ backing_dataset_id: backing.id, reasons: ['effective_spec_changed'] }]);
  const replay = await syncAndWait(asAcme, backing.id);
  t.not(replay.trigger.attempted_sync_spec_fingerprint, first.trigger.attempted_sync_spec_fingerprint);
  t.match(replay.run, {
    status: 'succeeded', snapshot_id_exact: snapshot, effective_spec_changed: true, replay_reason: 'effective_spec_changed',
    applied_sync_spec_fingerprint: replay.trigger.attempted_sync_spec_fingerprint, rows_synced: 3,
  });
  const entities = await stored(tp, `SELECT properties FROM ontology_entities WHERE key = '["L1"]'`);
  t.same(entities[0].properties, { light_id: 'L1', name: 'light 1' }, 'the replay applied the new mapping');
  // A new version of the type is another effective input.
  t.equal((await asAcme('PATCH', '/api/v1/ontology/entity-types/street_light', { description: 'changed' })).status, 200);
  const afterVersion = await syncAndWait(asAcme, backing.id);
  t.match(afterVersion.run, { effective_spec_changed: true, replay_reason: 'effective_spec_changed', entity_type_version: 2 });
});

t.test('force replays an unchanged snapshot with the replay reason force', async (t) => {
  const { asAcme, lake } = await ontologyPlatform(t);
  await writeLights(lake, lightRows(3));
  const backing = await lightsBacking(asAcme);
  const first = await syncAndWait(asAcme, backing.id);
  const forced = await syncAndWait(asAcme, backing.id, true);
  t.match(forced.trigger, { force: true, force_replay: true });
  t.match(forced.run, { status: 'succeeded', force: true, replay_reason: 'force', effective_spec_changed: false, applied_sync_spec_fingerprint: first.run.applied_sync_spec_fingerprint, rows_synced: 0 });
  t.equal(forced.run.bulk_jobs.length, 2, 'both bulk jobs ran again');
});

t.test('an identity policy\'s normalized rule shapes the entity key; a new policy version replays with effective_spec_changed', async (t) => {
  const { tp, asAcme, lake } = await ontologyPlatform(t);
  await writeLights(lake, [
    { id: 'L1', label: 'first', watts: 1, email: 'Ana@Example.com' },
    { id: 'L2', label: 'second', watts: 2, email: ' ana@example.com' },
    { id: 'L3', label: 'third', watts: 3, email: 'bob.smith@gmail.com' },
    { id: 'L4', label: 'fourth', watts: 4, email: 'bobsmith+x@gmail.com' },
  ]);
  const contact = {
    code: 'contact', name: 'Contact', keys: ['email'],
    properties: { type: 'object', required: ['email'], properties: { email: { type: 'string' }, name: { type: 'string' } } },
  };
  t.equal((await asAcme('POST', '/api/v1/ontology/entity-types', contact)).status, 201);
  const rules = (normalizers: string[]) => ({
    name: 'contacts',
    rules: [
      { name: 'similar_name', kind: 'fuzzy', fields: [{ field: 'label', threshold: 0.5 }, { field: 'email' }] },
      { name: 'same_email', kind: 'normalized', fields: [{ field: 'email', normalizers }] },
    ],
  });
  const policy = await asAcme('POST', '/api/v1/identity-policies', rules(['email']));
  t.equal(policy.status, 201, JSON.stringify(policy.body));
  const created = await asAcme('POST', '/api/v1/backing-datasets', {
    name: 'contacts', dataset_id: LIGHTS, entity_type: 'contact', key_columns: ['email'], identity_policy_id: policy.body.id,
    mappings: [{ column: 'email', property: 'email' }, { column: 'label', property: 'name' }],
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const first = await syncAndWait(asAcme, created.body.id);
  t.match(first.run, { status: 'succeeded', rows_synced: 3 });
  const entities = () => stored(tp, `SELECT key, key_values, properties, source_row_key FROM ontology_entities WHERE entity_type = 'contact' ORDER BY key`);
  t.same(await entities(), [
    { key: '["ana@example.com"]', key_values: { email: 'ana@example.com' }, properties: { email: 'Ana@Example.com', name: 'first' }, source_row_key: '["L1"]' },
    { key: '["bob.smith@gmail.com"]', key_values: { email: 'bob.smith@gmail.com' }, properties: { email: 'bob.smith@gmail.com', name: 'third' }, source_row_key: '["L3"]' },
    { key: '["bobsmith+x@gmail.com"]', key_values: { email: 'bobsmith+x@gmail.com' }, properties: { email: 'bobsmith+x@gmail.com', name: 'fourth' }, source_row_key: '["L4"]' },
  ], 'one entity for the two spellings of one e-mail (the first row by row key); the fuzzy rule merges nothing');

  // A new policy version (gmail forms too) is a new effective spec: the unchanged snapshot replays.
  const v2 = await asAcme('PUT', `/api/v1/identity-policies/${policy.body.id}`, rules(['email:gmail']));
  t.same([v2.status, v2.body.version], [200, 2]);
  const replay = await syncAndWait(asAcme, created.body.id);
  t.not(replay.trigger.attempted_sync_spec_fingerprint, first.trigger.attempted_sync_spec_fingerprint);
  t.match(replay.run, { status: 'succeeded', effective_spec_changed: true, replay_reason: 'effective_spec_changed', applied_sync_spec_fingerprint: replay.trigger.attempted_sync_spec_fingerprint });
  t.same((await entities()).map((e) => [e.key, e.source_row_key]), [['["ana@example.com"]', '["L1"]'], ['["bobsmith@gmail.com"]', '["L3"]']]);
  t.same(replay.run.bulk_jobs.map((j: { operation: string; completed_count: number }) => [j.operation, j.completed_count]), [['upsert', 4], ['delete_stale', 2]]);
});

t.test('without an identity policy keys are the values as given', async (t) => {
  const { tp, asAcme, lake } = await ontologyPlatform(t);
  await writeLights(lake, [{ id: 'L1', label: 'a', watts: 1, email: null }, { id: 'l1', label: 'b', watts: 2, email: null }]);
  const backing = await lightsBacking(asAcme);
  t.match((await syncAndWait(asAcme, backing.id)).run, { status: 'succeeded', rows_synced: 2 });
  t.same((await stored(tp, 'SELECT key FROM ontology_entities ORDER BY key COLLATE "C"')).map((e) => e.key), ['["L1"]', '["l1"]']);
});

function lightMappingsWithout(property: string) {
  return [{ column: 'id', property: 'light_id' }, { column: 'label', property: 'name' }, { column: 'watts', property: 'watts' }].filter((m) => m.property !== property);
}

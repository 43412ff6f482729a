// sync <spec-id> [--force]: skipped when the content hash is unchanged,
// forced, picking up a new endpoint, updating a changed one (keeping an
// edited description) and marking a removed one removed (a call then fails
// clearly with 410), with definition.* events; a document that cannot be read
// leaves the functions unchanged and the spec sync_failed.
import t from 'tap';
import { petstore } from '../../../test/fixtures/integrations/specs.ts';
import { callFunction, imported, integrationsFixture, recentEvents, startApiServer } from './helpers.ts';

t.test('re-sync: skipped on the same hash, forced, new, changed and removed operations', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  const document = petstore(api.url) as Record<string, any>;
  api.serve('/openapi.json', document);
  const done = await imported(tp, token, { source: `${api.url}/openapi.json`, name: 'pets', prefix: 'pet', auth_value: 'k' });
  const specId = done.spec.id as string;
  const sync = (force = false) => tp.request({ method: 'POST', url: `/api/admin/integrations/specs/${specId}/sync${force ? '?force=true' : ''}`, token });

  const same = await sync();
  t.equal(same.status, 200);
  t.match(same.body, { status: 'skipped', previous_hash: done.spec.content_hash, content_hash: done.spec.content_hash, changes: { create: 0, update: 0, remove: 0 } });
  t.equal(same.body.spec.last_sync_result, 'skipped');

  const forced = await sync(true);
  t.match(forced.body, { status: 'synced', changes: { create: 0, update: 0, unchanged: 7, remove: 0 } });

  // Edit a description: the edit survives the re-sync below.
  await tp.request({ method: 'PATCH', url: '/api/admin/integrations/functions/pet_list_pets', token, payload: { description: 'All the pets' } });

  // The API changes: a new endpoint, a changed one, a removed one.
  const changed = structuredClone(document);
  changed.paths['/owners'] = { get: { operationId: 'listOwners', summary: 'List owners', responses: { 200: { description: 'ok' } } } };
  changed.paths['/pets'].get.summary = 'List every pet';
  changed.paths['/pets'].get.parameters.push({ name: 'sort', in: 'query', schema: { type: 'string' } });
  delete changed.paths['/pets/{petId}'].delete;
  api.serve('/openapi.json', changed);

  const synced = await sync();
  t.equal(synced.status, 200, JSON.stringify(synced.body));
  t.equal(synced.body.status, 'synced');
  t.not(synced.body.content_hash, done.spec.content_hash);
  t.match(synced.body.changes, { create: 1, update: 1, remove: 1, unchanged: 5 });
  const actions = Object.fromEntries(synced.body.functions.map((f: { name: string; action: string }) => [f.name, f]));
  t.match(actions, {
    pet_list_owners: { action: 'create' },
    pet_list_pets: { action: 'update', changed_fields: ['summary', 'parameters'] },
    pet_delete_pet: { action: 'remove' },
  });
  t.match(synced.body.spec, { content_hash: synced.body.content_hash, function_count: 7, removed_count: 1, last_sync_result: 'synced' });

  const owners = await callFunction(tp, token, 'pet_list_owners');
  t.match(owners.body.result, { status: 200, body: { path: '/owners' } });
  const listPets = await tp.request({ url: '/api/admin/integrations/functions/pet_list_pets', token });
  t.equal(listPets.body.description, 'All the pets', 'an edited description is kept');
  t.equal(listPets.body.summary, 'List every pet');
  t.match(listPets.body.parameters, { sort: { location: 'query' } });
  await callFunction(tp, token, 'pet_list_pets', { sort: 'name' });
  t.equal(api.calls().at(-1)!.query.get('sort'), 'name');

  const removed = await tp.request({ url: '/api/admin/integrations/functions/pet_delete_pet', token });
  t.match(removed.body, { status: 'removed', removed_at: String });
  const calls = api.calls().length;
  const gone = await callFunction(tp, token, 'pet_delete_pet', { petId: 'p1' });
  t.equal(gone.status, 410);
  t.equal(gone.body.code, 'FUNCTION_REMOVED');
  t.match(gone.body.message, /DELETE \/pets\/\{petId\} is no longer in spec "pets"/);
  t.equal(api.calls().length, calls, 'no request for a removed function');
  const registry = await tp.request({ url: '/api/admin/functions', token });
  t.notOk(registry.body.items.some((f: { name: string }) => f.name === 'pet_delete_pet'), 'a removed function is not offered to agents');
  t.equal((await tp.request({ url: '/api/admin/integrations/functions?status=removed', token })).body.total, 1);

  const events = await recentEvents(tp, token);
  t.ok(events.some((e) => e.type === 'definition.created' && e.data.name === 'pet_list_owners' && e.data.definition_type === 'function'));
  t.ok(events.some((e) => e.type === 'definition.updated' && e.data.name === 'pet_list_pets' && e.data.changed_fields.includes('parameters')));
  // Marked removed, not deleted: an update of its status (deleting the spec deletes it).
  t.ok(events.some((e) => e.type === 'definition.updated' && e.data.name === 'pet_delete_pet' && e.data.status === 'removed'
    && e.data.changed_fields.includes('status')));

  // The operation comes back: the same function is active again.
  api.serve('/openapi.json', document);
  const back = await sync();
  t.match(back.body.changes, { create: 0, update: 2, remove: 1 });
  t.match(back.body.functions.find((f: { name: string }) => f.name === 'pet_delete_pet'), { action: 'update', changed_fields: ['status'] });
  t.equal((await tp.request({ url: '/api/admin/integrations/functions/pet_delete_pet', token })).body.status, 'active');

  // An unreadable document: nothing changes, the spec is sync_failed.
  api.serve('/openapi.json', 'openapi: [broken', 'application/yaml');
  const failed = await sync(true);
  t.equal(failed.status, 502);
  t.equal(failed.body.code, 'SYNC_FAILED');
  const spec = await tp.request({ url: `/api/admin/integrations/specs/${specId}`, token });
  t.match(spec.body, { status: 'sync_failed', last_sync_result: 'failed', last_error: /neither valid JSON nor YAML/, function_count: 7 });
  t.equal((await callFunction(tp, token, 'pet_get_pet', { petId: 'x' })).status, 200, 'functions keep working');

  api.serve('/openapi.json', document);
  t.equal((await sync(true)).body.spec.status, 'active', 'a successful sync clears the failure');

  t.equal((await tp.request({ method: 'POST', url: `/api/admin/integrations/specs/${specId}/sync?force=maybe`, token })).status, 400);
  t.equal((await tp.request({ method: 'POST', url: '/api/admin/integrations/specs/00000000-0000-4000-8000-000000000000/sync', token })).status, 404);
});

t.test('an inline or uploaded spec re-syncs from its stored document', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  const done = await imported(tp, token, { spec: petstore(api.url), name: 'pets', prefix: 'pet' });
  const skipped = await tp.request({ method: 'POST', url: `/api/admin/integrations/specs/${done.spec.id}/sync`, token });
  t.equal(skipped.body.status, 'skipped');
});

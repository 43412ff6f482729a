// The backing-dataset routes: suggestions, pending syncs, capabilities,
// CRUD. Every route but capabilities runs the authorization policy (authorization/policy.ts).
import type { ServerRoute } from 'agent-platform/sdk';
import { callerOf, callerPre, editor, reader } from '../access.ts';
import type { OntologyPolicy } from '../authorization/policy.ts';
import * as s from '../schemas.ts';
import type { BackingDatasetService } from '../services/backing-datasets.ts';
import type { SyncService } from '../services/syncs.ts';
import type { BackingDatasetSpec } from '../store/backing-datasets.ts';

const tags = ['api', 'backing-datasets'];
const idOf = (params: unknown) => (params as { backing_dataset_id: string }).backing_dataset_id;

export function backingDatasetRoutes(backing: BackingDatasetService, syncs: SyncService, policy: OntologyPolicy): ServerRoute[] {
  const pre = [callerPre(policy)];
  return [
    {
      method: 'POST', path: '/api/v1/backing-datasets/suggest-mappings',
      options: {
        auth: 'bearer', tags, description: 'Suggest column → property mappings and key columns of a readable dataset for an entity type: the model\'s when pipelines-ai is loaded and LLM_* set (checked against the columns and properties), else deterministic (name, type, sample values); `method` says which',
        plugins: { platform: reader }, pre, validate: { payload: s.suggestBody }, response: { schema: s.suggestions },
      },
      handler: (request) => backing.suggest(callerOf(request).tenantId, request.payload as never),
    },
    {
      method: 'GET', path: '/api/v1/backing-datasets/pending-syncs',
      options: {
        auth: 'bearer', tags, description: 'Backing datasets whose latest snapshot or effective spec differ from what their last sync applied',
        plugins: { platform: reader }, pre, response: { schema: s.pendingList },
      },
      handler: (request) => backing.pending(callerOf(request).tenantId),
    },
    {
      method: 'GET', path: '/api/v1/backing-datasets/capabilities',
      options: {
        auth: 'bearer', tags, description: 'The sync contract: {sync_contract_version: 2, supports_exact_run_polling, supports_force_replay}',
        plugins: { platform: reader }, pre, response: { schema: s.capabilities },
      },
      handler: () => syncs.capabilities(),
    },
    {
      method: 'GET', path: '/api/v1/backing-datasets',
      options: {
        auth: 'bearer', tags, description: 'List the tenant\'s backing datasets, by name',
        plugins: { platform: reader }, pre, validate: { query: s.backingQuery }, response: { schema: s.backingList },
      },
      handler: (request) => backing.list(callerOf(request).tenantId, request.query as never),
    },
    {
      method: 'POST', path: '/api/v1/backing-datasets',
      options: {
        auth: 'bearer', tags, description: 'Register a backing dataset: a dataset the tenant may read (read rule), mapped onto an entity type',
        plugins: { platform: editor }, pre, validate: { payload: s.backingCreate }, response: { schema: s.backingDataset },
      },
      handler: async (request, h) => h.response(await backing.create(callerOf(request), request.payload as BackingDatasetSpec)).code(201),
    },
    {
      method: 'GET', path: '/api/v1/backing-datasets/{backing_dataset_id}',
      options: {
        auth: 'bearer', tags, description: 'A backing dataset with what its last successful sync applied',
        plugins: { platform: reader }, pre, validate: { params: s.backingParams }, response: { schema: s.backingDataset },
      },
      handler: (request) => backing.get(callerOf(request).tenantId, idOf(request.params)),
    },
    {
      method: 'PATCH', path: '/api/v1/backing-datasets/{backing_dataset_id}',
      options: {
        auth: 'bearer', tags, description: 'Change a backing dataset (checked again against the dataset and the type); a changed effective spec replays on the next sync',
        plugins: { platform: editor }, pre, validate: { params: s.backingParams, payload: s.backingPatch }, response: { schema: s.backingDataset },
      },
      handler: (request) => backing.update(callerOf(request), idOf(request.params), request.payload as Partial<BackingDatasetSpec>),
    },
    {
      method: 'DELETE', path: '/api/v1/backing-datasets/{backing_dataset_id}',
      options: {
        auth: 'bearer', tags, description: 'Delete a backing dataset, its runs and the entities it synced (the lake dataset stays)',
        plugins: { platform: editor }, pre, validate: { params: s.backingParams },
      },
      handler: async (request, h) => {
        await backing.remove(callerOf(request), idOf(request.params));
        return h.response().code(204);
      },
    },
  ];
}

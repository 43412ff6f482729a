// The sync routes: trigger, history, the
// exact run, its logs, and the backing dataset's health.
import type { ServerRoute } from 'agent-platform/sdk';
import { callerOf, callerPre, editor, reader } from '../access.ts';
import type { OntologyPolicy } from '../authorization/policy.ts';
import * as s from '../schemas.ts';
import type { BackingDatasetService } from '../services/backing-datasets.ts';
import type { SyncService } from '../services/syncs.ts';

const tags = ['api', 'backing-datasets'];
const idOf = (params: unknown) => (params as { backing_dataset_id: string }).backing_dataset_id;
const runOf = (params: unknown) => (params as { run_id: string }).run_id;

export function syncRoutes(backing: BackingDatasetService, syncs: SyncService, policy: OntologyPolicy): ServerRoute[] {
  const pre = [callerPre(policy)];
  return [
    {
      method: 'POST', path: '/api/v1/backing-datasets/{backing_dataset_id}/sync',
      options: {
        auth: 'bearer', tags, description: 'Queue a sync: returns the persisted run id, attempted_sync_spec_fingerprint, force, and force_replay: true when a force was accepted',
        plugins: { platform: editor }, pre, validate: { params: s.backingParams, query: s.syncQuery }, response: { schema: s.syncRun },
      },
      handler: async (request, h) => h.response(await syncs.trigger(callerOf(request), idOf(request.params), (request.query as { force: boolean }).force)).code(202),
    },
    {
      method: 'GET', path: '/api/v1/backing-datasets/{backing_dataset_id}/sync-history',
      options: {
        auth: 'bearer', tags, description: 'The backing dataset\'s sync runs, newest first',
        plugins: { platform: reader }, pre, validate: { params: s.backingParams, query: s.historyQuery }, response: { schema: s.runList },
      },
      handler: (request) => syncs.history(callerOf(request).tenantId, idOf(request.params), request.query as never),
    },
    {
      method: 'GET', path: '/api/v1/backing-datasets/{backing_dataset_id}/sync-history/{run_id}',
      options: {
        auth: 'bearer', tags, description: 'The exact run: adds is_terminal, rows_synced and bulk_jobs (poll it until is_terminal)',
        plugins: { platform: reader }, pre, validate: { params: s.runParams }, response: { schema: s.exactRun },
      },
      handler: (request) => syncs.run(callerOf(request).tenantId, idOf(request.params), runOf(request.params)),
    },
    {
      method: 'GET', path: '/api/v1/backing-datasets/{backing_dataset_id}/sync-history/{run_id}/logs',
      options: {
        auth: 'bearer', tags, description: 'A run\'s log lines (no row data, no credentials)',
        plugins: { platform: reader }, pre, validate: { params: s.runParams }, response: { schema: s.runLogs },
      },
      handler: (request) => syncs.logs(callerOf(request).tenantId, idOf(request.params), runOf(request.params)),
    },
    {
      method: 'GET', path: '/api/v1/backing-datasets/{backing_dataset_id}/health',
      options: {
        auth: 'bearer', tags, description: 'Whether the backing dataset can sync and is current: healthy, pending, never_synced, degraded (last run failed) or failing',
        plugins: { platform: reader }, pre, validate: { params: s.backingParams }, response: { schema: s.health },
      },
      handler: (request) => backing.health(callerOf(request).tenantId, idOf(request.params)),
    },
  ];
}

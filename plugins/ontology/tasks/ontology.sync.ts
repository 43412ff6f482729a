// The pg-boss task running one backing-dataset sync (sync/runner.ts).
export const SYNC_TASK = 'ontology.sync';

export interface SyncJob {
  tenant_id: string;
  run_id: string;
}

export const SYNC_TASK = 'ingestion.sync';

// The ingestion tests' helpers (plugins/ingestion/test/helpers.ts) for the
// tests outside that plugin that upload documents through it.
export * from '../../../plugins/ingestion/test/helpers.ts';

// Moved to core/http/guarded-fetch.ts (shared with the integrations plugin); kept so existing imports work.
export * from '../../../core/http/guarded-fetch.ts';

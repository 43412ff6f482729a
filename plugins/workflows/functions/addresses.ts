// Moved to core/http/addresses.ts (shared with the integrations plugin); kept so existing imports work.
export * from '../../../core/http/addresses.ts';

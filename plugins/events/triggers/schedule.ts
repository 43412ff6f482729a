// Cron arithmetic of scheduled triggers: shared with the other schedules of
// the platform, so it lives in core (core/cron.ts) and comes through the SDK.
export { canonicalTimeZone, cronProblem, dueOccurrence, nextOccurrence, nextOccurrences, walkTo } from 'agent-platform/sdk';
export type { DueOccurrence, MissedRunPolicy, Walk } from 'agent-platform/sdk';

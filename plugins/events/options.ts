// The plugin's manifest options.
import Joi from 'joi';

export interface EventsOptions {
  /** Events one dispatch transaction handles (larger: more throughput, longer transactions). */
  dispatchBatchSize: number;
  /** How long one dispatcher job drains before handing over to a fresh job (fairness, shutdown). */
  dispatchSliceMs: number;
  /** A schedule timer that runs later than this after its occurrence counts as missed (missed_fire_policy). */
  scheduleGraceSeconds: number;
  /** Dispatched events, dispatch records and dedup windows older than this are deleted daily; 0 keeps them. */
  retentionDays: number;
  /** An event this many links down a chain of workflows emitting events starts no workflow. */
  maxChainDepth: number;
}

export const optionsSchema = Joi.object({
  dispatchBatchSize: Joi.number().integer().min(1).max(1000).default(100),
  dispatchSliceMs: Joi.number().integer().min(100).max(60_000).default(2_000),
  scheduleGraceSeconds: Joi.number().integer().min(1).max(86_400).default(60),
  retentionDays: Joi.number().integer().min(0).max(3650).default(30)
    .description('Dispatched events and dispatch records older than this are deleted daily (0 keeps all)'),
  maxChainDepth: Joi.number().integer().min(1).max(1000).default(8)
    .description('An event this many links down a chain of workflows emitting events starts no workflow; a failed dispatch `CHAIN_DEPTH_EXCEEDED` is recorded'),
}).default({});

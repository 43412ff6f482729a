// What the dispatcher, the timers and the service share. The server builds it
// from the core services; the CLI builds a smaller one (no workflows: starts
// happen in the server's workers).
import type { Logger } from 'pino';
import type { EmitOptions, EventInput, JobsApi, SchedulesApi, TenantTransaction, WithTenant } from 'agent-platform/sdk';
import type { WorkflowsApi } from '../../workflows/api.ts';
import { DEFAULT_MAX_CHAIN_DEPTH } from '../dispatch/chain.ts';
import { emitEvent, type EmittedEvent } from '../stream/emit.ts';
import { enqueueDispatch } from '../dispatch/jobs.ts';
import { createWaker, type Waker } from '../dispatch/waker.ts';
import type { EventsOptions } from '../options.ts';
import type { TypeRegistry } from '../stream/type-registry.ts';

export interface EventsContext {
  withTenant: WithTenant;
  jobs: Pick<JobsApi, 'enqueue' | 'removeJob'>;
  /** Scheduled triggers' schedules (core.schedules, kind TRIGGER_SCHEDULE of scheduler.ts). */
  schedules: SchedulesApi;
  /** The workflows plugin's API; throws where there is none (the CLI). */
  workflows: () => WorkflowsApi;
  registry: TypeRegistry;
  logger: Logger;
  options: EventsOptions;
  /** The maxChainDepth option: an event this deep in a chain starts no workflow (dispatch/chain.ts). */
  maxChainDepth: number;
  /** Wakes tenants' dispatchers after emitting commits (dispatch/waker.ts). */
  waker: Waker;
  emit(trx: TenantTransaction, tenantId: string, input: EventInput, options?: EmitOptions): Promise<EmittedEvent>;
}

export function createContext(parts: Omit<EventsContext, 'emit' | 'maxChainDepth' | 'waker'> & { maxChainDepth?: number }): EventsContext {
  const waker = createWaker((tenantId) => enqueueDispatch(parts.jobs, tenantId), parts.logger);
  const context: EventsContext = {
    ...parts,
    maxChainDepth: parts.maxChainDepth ?? DEFAULT_MAX_CHAIN_DEPTH,
    waker,
    emit: (trx, tenantId, input, options) => emitEvent({ jobs: parts.jobs, registry: parts.registry, logger: parts.logger, wake: waker.wake }, trx, tenantId, input, options),
  };
  return context;
}

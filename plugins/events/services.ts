// The one factory of the events plugin's services: its register and its CLI
// commands both build them here, from the core's services and the manifest's
// options. Starting workflows goes through the workflows plugin, which only
// the server has: the CLI's backfills and dispatches run in its workers.
import { type CoreServices, UsageError } from 'agent-platform/sdk';
import type { WorkflowsApi } from '../workflows/api.ts';
import type { EventsApi, StreamEvent } from './api.ts';
import { createContext } from './services/context.ts';
import type { EventsOptions } from './options.ts';
import { createStreamService } from './services/stream.ts';
import { createTriggerService } from './services/triggers.ts';
import { createTypeRegistry } from './stream/type-registry.ts';

const serverOnly = (): WorkflowsApi => {
  throw new UsageError('starting workflows needs the server: this command should have gone through it');
};

export function createServices(core: CoreServices, options: EventsOptions, workflows: () => WorkflowsApi = serverOnly) {
  const context = createContext({
    withTenant: core.withTenant,
    jobs: core.jobs,
    schedules: core.schedules,
    workflows,
    // In the CLI no plugin's register runs, so no type is registered there (it creates no custom types).
    registry: createTypeRegistry(core.events, core.invalidation),
    logger: core.logger.child({ component: 'events' }),
    options,
    maxChainDepth: options.maxChainDepth,
  });
  const stream = createStreamService(context);
  // Other plugins read a tenant's stream through this api only (the pipelines' platform_events source).
  const api: EventsApi = { after: (tenantId, from, limit, type, trx) => stream.after(tenantId, from, limit, type, trx) as Promise<StreamEvent[]> };
  return { context, stream, triggers: createTriggerService(context), api };
}

export type EventsServices = ReturnType<typeof createServices>;

// Events: the per-tenant durable stream behind core.events.emit, custom event
// types, and triggers (reactive, scheduled, deadman) that start workflows
// through the workflows plugin. Registration only: the backend, the job
// handlers, routes, GraphQL, the retention schedule; exposes an api to other plugins.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import { EVENT_TYPES } from './event-types.ts';
import { TRIGGER_SCHEDULE, triggerScheduleKind } from './triggers/scheduler.ts';
import { BACKFILL_TASK, DEADMAN_TASK, DISPATCH_TASK, RETENTION_TASK, SWEEP_TASK } from './dispatch/jobs.ts';
import { optionsSchema, type EventsOptions } from './options.ts';
import { createServices } from './services.ts';
import { eventsRoutes } from './routes/events.ts';
import { typeDefs, resolvers } from './graphql.ts';
import { dispatchTask } from './tasks/events.dispatch.ts';
import { deadmanFireTask } from './tasks/events.deadman_fire.ts';
import { backfillTask } from './tasks/events.backfill.ts';
import { retentionTask } from './tasks/events.retention.ts';
import { sweepTask } from './tasks/events.sweep.ts';
import './store/tables.ts';

export { cli } from './cli.ts';
export { optionsSchema };

export const plugin = definePlugin({
  name: 'events',
  version: '0.1.0',
  dependencies: ['tenancy', 'workflows'],
  async register(server, options: EventsOptions, deps) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const { context, stream, triggers, api } = createServices(core, options, () => deps.workflows);
    core.events.setBackend((trx, tenantId, event, options) => context.emit(trx, tenantId, event, options), { alongside: true });

    core.jobs.defineTask(DISPATCH_TASK, dispatchTask(context));
    core.schedules.define(TRIGGER_SCHEDULE, triggerScheduleKind(context));
    core.jobs.defineTask(DEADMAN_TASK, deadmanFireTask(context));
    core.jobs.defineTask(BACKFILL_TASK, backfillTask(context));
    core.jobs.defineLongTask(RETENTION_TASK, retentionTask(context, core.tenants, () => core.clock.now().getTime()), { retryLimit: 2, expireInSeconds: 3600 });
    await core.jobs.schedule(RETENTION_TASK, 'daily', '17 3 * * *', { tz: 'UTC' });
    core.jobs.defineLongTask(SWEEP_TASK, sweepTask(context, core.tenants), { retryLimit: 0, expireInSeconds: 300 });
    await core.jobs.schedule(SWEEP_TASK, 'every-minute', '* * * * *', { tz: 'UTC' });
    // A wake lost while no server ran (or to a crash) is found at start too.
    server.ext('onPostStart', async () => {
      await core.jobs.enqueueLong(SWEEP_TASK, {});
    });

    server.route(eventsRoutes(stream, triggers));
    core.graphql.extend({ typeDefs, resolvers: resolvers(stream, triggers) });
    server.expose('api', api);
  },
});

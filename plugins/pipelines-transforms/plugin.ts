// Pipeline transforms: SQL transforms over datasets (parsed with the real
// PostgreSQL parser, allowlisted, run as the tenant role under forced RLS),
// their runs, artifacts and schedules, the SQL library and transform
// patterns, and generic runs of external orchestrators. Registration only.
import type { Server } from '@hapi/hapi';
import { coreOf, definePlugin } from 'agent-platform/sdk';
import type { TransformsApi } from './api.ts';
import { EVENT_TYPES } from './event-types.ts';
import { optionsSchema, type TransformsOptions } from './options.ts';
import { transformRunRoutes } from './routes-runs.ts';
import { scheduleRoutes } from './routes-schedules.ts';
import { transformRoutes } from './routes-transforms.ts';
import { RUN_TASK, type RunJob } from './service-runs.ts';
import { createServices } from './services.ts';
import { fireSchedule, SCHEDULE_TASK, type ScheduleTimer } from './tasks/pipelines-transforms.schedule_fire.ts';
import './tables.ts';

export { optionsSchema };

declare module '@hapi/hapi' {
  interface PluginProperties {
    'pipelines-transforms': { api: TransformsApi };
  }
}

export const plugin = definePlugin<TransformsOptions>({
  name: 'pipelines-transforms',
  version: '0.1.0',
  dependencies: ['tenancy', 'lakehouse'],
  register(server: Server, options) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const services = createServices(core, options, () => server.plugins.lakehouse.api);
    core.jobs.defineLongTask(RUN_TASK, (data: RunJob, job) => services.runs.execute(data.tenant_id, data.run_id, job.signal), {
      retryLimit: 0, expireInSeconds: options.runTimeoutSeconds,
    });
    core.jobs.defineTask(SCHEDULE_TASK, (payload: ScheduleTimer) => fireSchedule(services.context, services.runs)(payload));
    server.route([...transformRoutes(services), ...transformRunRoutes(services.runs), ...scheduleRoutes(services.schedules)]);
    server.expose('api', services.api);
  },
});

// Pipeline transforms: SQL transforms over datasets (parsed with the real
// PostgreSQL parser, allowlisted, run as the tenant role under forced RLS),
// their runs, artifacts and schedules, the SQL library and transform
// patterns, and generic runs of external orchestrators. Registration only.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import type {} from '../pipelines-apply/api.ts';
import { transformKindHandler } from './apply/kind.ts';
import { EVENT_TYPES } from './event-types.ts';
import { resolvers, typeDefs } from './graphql.ts';
import { optionsSchema, type TransformsOptions } from './options.ts';
import { artifactRoutes } from './routes/artifacts.ts';
import { draftRoutes } from './routes/drafts.ts';
import { genericRunRoutes } from './routes/generic-runs.ts';
import { libraryRoutes } from './routes/library.ts';
import { transformRunRoutes } from './routes/runs.ts';
import { scheduleRoutes } from './routes/schedules.ts';
import { transformRoutes } from './routes/transforms.ts';
import { createServices } from './services.ts';
import { RUN_TASK, runTask, runTaskOptions } from './tasks/pipelines-transforms.run.ts';
import { RUN_DEAD_TASK, runDeadTask, runDeadTaskOptions } from './tasks/pipelines-transforms.run.dead.ts';
import { TRANSFORM_SCHEDULE, transformScheduleKind } from './tasks/pipelines-transforms.schedule_fire.ts';
import './store/tables.ts';

export { optionsSchema };

export const plugin = definePlugin({
  name: 'pipelines-transforms',
  version: '0.1.0',
  dependencies: ['tenancy', 'lakehouse'],
  // The declarative Transform kind is contributed when the apply plugin is loaded.
  optionalDependencies: ['pipelines-apply'],
  register(server, options: TransformsOptions, deps) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const services = createServices(core, options, () => deps.lakehouse);
    core.jobs.defineLongTask(RUN_TASK, runTask(services.runs, options), runTaskOptions(options));
    core.jobs.defineLongTask(RUN_DEAD_TASK, runDeadTask(services.runs), runDeadTaskOptions);
    core.schedules.define(TRANSFORM_SCHEDULE, transformScheduleKind(services.context, services.runs));
    server.route([...draftRoutes(services.drafts), ...transformRoutes(services), ...transformRunRoutes(services.runs), ...scheduleRoutes(services.schedules)]);
    server.route([...genericRunRoutes(services.genericRuns), ...artifactRoutes(services.artifacts)]);
    server.route(libraryRoutes(services.library, services.patterns));
    core.graphql.extend({ typeDefs, resolvers: resolvers(services.transforms, services.runs, services.execution, () => deps.lakehouse) });
    // The built-in catalogs are (re)loaded at start; idempotent, by checksum.
    server.ext('onPreStart', async () => {
      await services.library.sync();
      await services.patterns.sync();
    });
    server.expose('api', services.api);
    if (core.extensions.has('pipelines-apply.kinds')) {
      core.extensions.contribute('pipelines-apply.kinds', transformKindHandler(services.transforms, core.withTenant));
    }
  },
});

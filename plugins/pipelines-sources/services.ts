// The one factory of the sources plugin's services (its register wires them
// from here), and the api other plugins use.
import type { CoreServices } from 'agent-platform/sdk';
import type { EventsApi } from '../events/api.ts';
import type { LakehouseApi } from '../lakehouse/api.ts';
import type { PipelineSourcesApi } from './api.ts';
import type { SourcesOptions } from './options.ts';
import { createContext } from './services/context.ts';
import { createCredentialService } from './services/credentials.ts';
import { createFileService } from './services/files.ts';
import { createRegistrationService } from './services/registrations.ts';
import { createRunService } from './services/runs.ts';
import { createScheduleService } from './services/schedules.ts';
import { createSourceService } from './services/sources.ts';
import { createStreamService } from './services/streams.ts';

export function createServices(core: CoreServices, options: SourcesOptions, lake: () => LakehouseApi, events: () => EventsApi | undefined) {
  const context = createContext(core, options, lake, events);
  const sources = createSourceService(context);
  const streams = createStreamService(context, sources);
  const runs = createRunService(context, sources);
  const credentials = createCredentialService(context, sources);
  const files = createFileService(context);
  const schedules = createScheduleService(context, sources, runs);
  const registrations = createRegistrationService(context);
  const api: PipelineSourcesApi = { getPattern: (id) => context.patterns.record(id) };
  return { context, sources, streams, runs, credentials, files, schedules, registrations, api };
}

export type SourcesServices = ReturnType<typeof createServices>;

// Pipeline sources: sources made from patterns (connectors), their streams,
// credentials (vault or legacy_inline), discovery and syncs that land streams
// in the lakehouse. Registration only.
import type { Server } from '@hapi/hapi';
import { coreOf, definePlugin } from 'agent-platform/sdk';
import type { PipelineSourcesApi } from './api.ts';
import { createContext } from './context.ts';
import { optionsSchema, type SourcesOptions } from './options.ts';
import { patternRoutes } from './routes-patterns.ts';
import { sourceRoutes } from './routes-sources.ts';
import { streamRoutes } from './routes-streams.ts';
import { createSourceService } from './service-sources.ts';
import { createStreamService } from './service-streams.ts';
import './tables.ts';

export { optionsSchema };

declare module '@hapi/hapi' {
  interface PluginProperties {
    'pipelines-sources': { api: PipelineSourcesApi };
  }
}

export const plugin = definePlugin<SourcesOptions>({
  name: 'pipelines-sources',
  version: '0.1.0',
  dependencies: ['tenancy', 'lakehouse'],
  register(server: Server, options) {
    const core = coreOf(server);
    const context = createContext(core, options, () => server.plugins.lakehouse.api);
    const sources = createSourceService(context);
    const streams = createStreamService(context, sources);
    server.route([...patternRoutes(context.patterns), ...sourceRoutes(sources), ...streamRoutes(streams)]);
    const api: PipelineSourcesApi = { registerPattern: (pattern) => context.patterns.register(pattern) };
    server.expose('api', api);
  },
});

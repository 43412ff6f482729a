// Declarative apply: POST /apply/dry-run and POST /apply over a kind registry
// that the plugins owning each kind fill (registerKind). Registration only.
import type { Server } from '@hapi/hapi';
import { coreOf, definePlugin } from 'agent-platform/sdk';
import type { ApplyApi } from './api.ts';
import { optionsSchema, type ApplyOptions } from './options.ts';
import { applyRoutes } from './routes/apply.ts';
import { createServices } from './services.ts';

export { optionsSchema };

declare module '@hapi/hapi' {
  interface PluginProperties {
    'pipelines-apply': { api: ApplyApi };
  }
}

export const plugin = definePlugin<ApplyOptions>({
  name: 'pipelines-apply',
  version: '0.1.0',
  dependencies: ['tenancy'],
  register(server: Server, options) {
    const { yaml, apply, api } = createServices(coreOf(server));
    server.ext('onPostStop', () => yaml.close());
    server.route(applyRoutes(apply, options, yaml));
    server.expose('api', api);
  },
});

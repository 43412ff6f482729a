// Declarative apply: POST /apply/dry-run and POST /apply over a kind registry
// that the plugins owning each kind fill (registerKind). Registration only.
import type { Server } from '@hapi/hapi';
import { coreOf, definePlugin } from 'agent-platform/sdk';
import type { ApplyApi } from './api.ts';
import { optionsSchema, type ApplyOptions } from './options.ts';
import { createKindRegistry } from './kinds/registry.ts';
import { applyRoutes } from './routes/apply.ts';
import { API_VERSION, createApplyService } from './services/apply.ts';
import { createYamlReader } from './request-body/yaml-reader.ts';

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
    const registry = createKindRegistry();
    const yaml = createYamlReader();
    server.ext('onPostStop', () => yaml.close());
    server.route(applyRoutes(createApplyService(coreOf(server), registry), options, yaml));
    const api: ApplyApi = { registerKind: (handler) => registry.register(handler), apiVersion: API_VERSION };
    server.expose('api', api);
  },
});

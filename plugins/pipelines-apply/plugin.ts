// Declarative apply: POST /apply/dry-run and POST /apply over a kind registry
// that the plugins owning each kind fill (the `pipelines-apply.kinds`
// extension point). Registration only.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import { optionsSchema, type ApplyOptions } from './options.ts';
import { applyRoutes } from './routes/apply.ts';
import { createServices } from './services.ts';

export { optionsSchema };

export const plugin = definePlugin({
  name: 'pipelines-apply',
  version: '0.1.0',
  dependencies: ['tenancy'],
  extensionPoints: { 'pipelines-apply.kinds': 'The handler of a declarative kind (kind, plan): POST /apply routes that kind\'s documents to it' },
  register(server, options: ApplyOptions) {
    const core = coreOf(server);
    const { registry, yaml, apply, api } = createServices(core);
    core.extensions.consume('pipelines-apply.kinds', (handler) => registry.register(handler));
    server.ext('onPostStop', () => yaml.close());
    server.route(applyRoutes(apply, options, yaml));
    server.expose('api', api);
  },
});

// Embed: a client's embed configuration, its public manifest, embed
// credentials and tokens, the origin policy and CORS of the end-user routes,
// scoped uploads (plugins/embed/README.md).
// Registration only: the logic is in the services.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import { EVENT_TYPES } from './event-types.ts';
import type { EmbedOptions } from './options.ts';
import { registerManifestFastPath } from './origins/manifest-fast-path.ts';
import { registerOriginPolicy } from './origins/origin-policy.ts';
import { adminRoutes } from './routes/admin.ts';
import { publicRoutes } from './routes/public.ts';
import { createServices } from './services.ts';
import { graphqlPart } from './graphql.ts';
import { widgetAssetRoutes } from './routes/widget-assets.ts';

export { cli } from './cli.ts';
export { optionsSchema } from './options.ts';

export const plugin = definePlugin<EmbedOptions>({
  name: 'embed',
  version: '0.1.0',
  dependencies: ['tenancy', 'chat'],
  register(server, options) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const services = createServices(core, options, {
      serviceAccounts: () => server.plugins.tenancy.api.serviceAccounts,
      chat: () => server.plugins.chat.api,
      ingestion: () => server.plugins.ingestion?.api,
    });
    registerOriginPolicy(server, services.cache);
    registerManifestFastPath(server, services.manifests);
    services.uploads.registerCleanup();
    server.route([
      ...adminRoutes(services.config, services.credentials, options.publicBaseUrl),
      ...publicRoutes(services.manifests, services.tokens, services.uploads, options.uploadMaxBytes),
      ...widgetAssetRoutes(),
    ]);
    core.graphql.extend(graphqlPart(services.config));
  },
});

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

export const plugin = definePlugin({
  name: 'embed',
  version: '0.1.0',
  dependencies: ['tenancy', 'chat'],
  // Scoped uploads go to ingestion's private collections when it is loaded.
  optionalDependencies: ['ingestion'],
  register(server, options: EmbedOptions, deps) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const services = createServices(core, options, {
      serviceAccounts: () => deps.tenancy.serviceAccounts,
      chat: () => deps.chat,
      ingestion: () => deps.ingestion,
    });
    registerOriginPolicy(server, services.cache);
    registerManifestFastPath(server, services.manifests);
    services.uploads.registerCleanup();
    server.route([
      ...adminRoutes(services.config, services.credentials, services.playground, options.publicBaseUrl),
      ...publicRoutes(services.manifests, services.tokens, services.uploads, options.uploadMaxBytes),
      ...widgetAssetRoutes(),
    ]);
    core.graphql.extend(graphqlPart(services.config));
  },
});

// Identity: identity policies (entity resolution: rules, immutable versions,
// dry runs, the matching the ontology's syncs use), the schema libraries and
// the tenant schema registry, and the tenant's users. Registration only.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import type {} from '../pipelines-apply/api.ts';
import { identityPolicyKind } from './apply/policy-kind.ts';
import { resolvers, typeDefs } from './graphql.ts';
import { optionsSchema, type IdentityOptions } from './options.ts';
import { libraryRoutes } from './routes/libraries.ts';
import { policyRoutes } from './routes/policies.ts';
import { registryRoutes } from './routes/registry.ts';
import { userRoutes } from './routes/users.ts';
import { createServices } from './services.ts';
import './store/tables.ts';

export { optionsSchema };
export { cli } from './cli.ts';

export const plugin = definePlugin({
  name: 'identity',
  version: '0.1.0',
  dependencies: ['tenancy', 'lakehouse', 'pipelines-apply'],
  register(server, options: IdentityOptions, deps) {
    const core = coreOf(server);
    const services = createServices(core, options, () => deps.lakehouse, () => deps.tenancy);
    const { policies, dryRun, libraries, registry, users, api } = services;
    server.route(policyRoutes(policies, dryRun));
    server.route([...libraryRoutes(libraries), ...registryRoutes(registry)]);
    server.route(userRoutes(users));
    core.graphql.extend({ typeDefs, resolvers: resolvers(policies, registry, libraries, () => deps.lakehouse) });
    // The IdentityPolicy kind of the declarative apply.
    core.extensions.contribute('pipelines-apply.kinds', identityPolicyKind(policies));
    server.expose('api', api);
  },
});

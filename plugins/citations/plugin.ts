// Citations: citation records, the platform functions
// resolve_citation and verify_citation, provenance of the chunks each
// execution context was shown, the <citations> block parser and writer, REST
// (citations and the chat citation status), GraphQL with the citationVerified subscription.
// Registration only: the logic is in services/ and the pure modules.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import { defaultOptions, optionsSchema, type CitationsOptions } from './options.ts';
import { refsToRecord } from './provenance/walk.ts';
import { VERIFY_TASK } from './services/citations.ts';
import { createServices } from './services.ts';
import { citationFunctions } from './functions.ts';
import { citationsRoutes } from './routes/citations.ts';
import { typeDefs, resolvers } from './graphql.ts';
import { verifyTask } from './tasks/citations.verify.ts';
import { PRUNE_CRON, PRUNE_TASK, pruneTask } from './tasks/citations.prune_provenance.ts';
import './store/tables.ts';

export { cli } from './cli.ts';
export { optionsSchema };

export const plugin = definePlugin({
  name: 'citations',
  version: '0.1.0',
  dependencies: ['tenancy', 'ingestion'],
  extensionPoints: { 'citations.context-owners': 'Who owns the execution contexts of one type (type, ownerKey): the chat citation status answers an end user only in its own' },
  async register(server, rawOptions: Partial<CitationsOptions>, deps) {
    const core = coreOf(server);
    const options: CitationsOptions = { ...defaultOptions, ...rawOptions };
    const { live, owners, citations: service, api } = createServices(core, options, () => deps.ingestion);
    core.extensions.consume('citations.context-owners', (resolver, contributor) => owners.add(resolver, contributor));

    for (const [name, definition] of Object.entries(citationFunctions(service))) core.functions.register(name, definition);
    // Provenance: what every successful call showed to its execution context.
    core.functions.observe(async (call) => {
      const refs = refsToRecord(call);
      if (refs.length > 0 && call.context.executionContext) {
        await service.recordShown(call.context.tenantId, call.context.executionContext, refs, call.name);
      }
    });

    core.jobs.defineTask(VERIFY_TASK, verifyTask(service));
    core.jobs.defineLongTask(PRUNE_TASK, pruneTask(core, options.provenanceRetentionDays, () => core.clock.now().getTime()), { retryLimit: 1 });
    await core.jobs.schedule(PRUNE_TASK, PRUNE_TASK, PRUNE_CRON);

    server.route(citationsRoutes(service));
    core.graphql.extend({ typeDefs, resolvers: resolvers(service, live, () => deps.ingestion) });
    // Open subscriptions end before the server waits for its connections to close.
    server.ext('onPreStop', () => live.close());

    server.expose('api', api);
  },
});

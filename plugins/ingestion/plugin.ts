// Ingestion: collections, document upload, the staged pipeline (parse, chunk,
// embed, index), revisions, status and retries, sync sources, hybrid search,
// the search_documents/read_document platform functions, GraphQL and CLI.
// Registration only: the services come from services.ts (the factory its CLI
// shares), the logic is in services/, pipeline/, search/, sync/ and tasks/.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import type {} from '../console/api.ts';
import { EVENT_TYPES } from './event-types.ts';
import { ensureVectorIndexes } from './embeddings/vector-index.ts';
import { collectionRoutes } from './routes/collections.ts';
import { documentRoutes } from './routes/documents.ts';
import { statusRoutes } from './routes/status.ts';
import { syncRoutes } from './routes/sync.ts';
import { embeddingProblem } from './config/settings.ts';
import { enqueueTask, RECONCILE_TASK, REEMBED_TASK, STAGE_TASK, SYNC_TASK, scheduleTask } from './tasks/payloads.ts';
import { reembedTask, reembedTaskOptions } from './tasks/ingestion.reembed.ts';
import { stageTask, stageTaskOptions } from './tasks/ingestion.stage.ts';
import { RECONCILE_CRON, reconcileTask, reconcileTaskOptions } from './tasks/ingestion.reconcile.ts';
import { syncTask, syncTaskOptions } from './tasks/ingestion.sync.ts';
import { registerFunctions } from './functions.ts';
import { graphqlPart } from './graphql.ts';
import { readinessCheck, warnIncompleteSettings } from './routes/readiness.ts';
import { createServices } from './services.ts';
import type { IngestionOptions } from './options.ts';
import { documentsStore } from './store/documents.ts';

export { cli } from './cli.ts';
export { optionsSchema } from './options.ts';
export { secrets } from './config/settings.ts';

export const plugin = definePlugin({
  name: 'ingestion',
  version: '0.1.0',
  dependencies: ['tenancy'],
  async register(server, options: IngestionOptions) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const { settings, runDeps, stageDeps, searchDeps, search, collections, documents, pages, status, sync, api } = await createServices(core, options);
    const problem = embeddingProblem(settings);
    if (problem) throw new Error(problem);
    warnIncompleteSettings(core, settings);
    await ensureVectorIndexes(core, settings);
    server.ext('onPostStop', () => stageDeps.parsers.close());
    // The console's Overview counts the documents a tenant added this week.
    if (core.extensions.has('console.usage')) {
      core.extensions.contribute('console.usage', { key: 'documents', count: (tenantId, since) => core.withTenant(tenantId, (trx) => documentsStore.createdSince(trx, since)) });
    }

    server.route([
      ...collectionRoutes(collections),
      ...documentRoutes(documents, settings, search),
      ...statusRoutes(status),
      ...syncRoutes(sync),
    ]);

    core.jobs.defineLongTask(STAGE_TASK, stageTask(stageDeps), stageTaskOptions(settings));
    core.jobs.defineLongTask(RECONCILE_TASK, reconcileTask(runDeps), reconcileTaskOptions);
    await scheduleTask(core, RECONCILE_TASK, RECONCILE_TASK, RECONCILE_CRON, {});
    core.jobs.defineLongTask(SYNC_TASK, syncTask(sync), syncTaskOptions(settings));
    core.jobs.defineLongTask(REEMBED_TASK, reembedTask({ ...runDeps, embedder: stageDeps.embedder }), reembedTaskOptions);
    // A pulled model in use: chunks embedded before (by another model, or none) are re-embedded in the background.
    // One re-embed job per model, however many processes boot at once.
    if (settings.embedding.pulledModel && stageDeps.embedder) {
      await enqueueTask(core, REEMBED_TASK, { model: stageDeps.embedder.model }, { singletonKey: `reembed/${stageDeps.embedder.model}` });
    }

    registerFunctions(core, searchDeps);
    core.graphql.extend(graphqlPart({ documents, pages, status, search }));
    readinessCheck(server, settings);
    server.expose('api', api);
  },
});

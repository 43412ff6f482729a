// Ingestion: collections, document upload, the staged pipeline (parse, chunk,
// embed, index), revisions, status and retries, sync sources, hybrid search,
// the search_documents/read_document platform functions, GraphQL and CLI.
// Registration only: the logic is in service/, pipeline/, search/.
import type { Server } from '@hapi/hapi';
import Joi from 'joi';
import { coreOf } from 'agent-platform/sdk';
import { EVENT_TYPES } from './event-types.ts';
import { createTokenCounter, type TokenCounter } from './chunking/tokenizer.ts';
import { ensurePageImageIndex, ensureVectorIndex } from './embeddings/vector-index.ts';
import { collectionRoutes } from './routes/collections.ts';
import { documentRoutes } from './routes/documents.ts';
import { statusRoutes } from './routes/status.ts';
import { syncRoutes } from './routes/sync.ts';
import { STAGE_TASK } from './pipeline/runs.ts';
import { ParserPool } from './pipeline/parser-pool.ts';
import { stageHandler } from './pipeline/task.ts';
import { RECONCILE_CRON, RECONCILE_TASK, reconcileHandler } from './pipeline/reconciler.ts';
import { SYNC_TASK, syncHandler } from './sync/task.ts';
import { registerFunctions } from './functions.ts';
import { createIngestionApi } from './api-impl.ts';
import { createPrivateUploads } from './service/private.ts';
import { graphqlPart } from './graphql.ts';
import { readinessCheck } from './readiness.ts';
import { createServices, type IngestionOptions } from './services.ts';

export { cli } from './cli.ts';

export const optionsSchema = Joi.object({
  /** Overrides INGESTION_MAX_CONCURRENT (spec 8: 5 workflows per tenant). */
  maxConcurrent: Joi.number().integer().min(1),
});

export const plugin = {
  name: 'ingestion',
  version: '0.1.0',
  dependencies: ['tenancy'],
  async register(server: Server, options: IngestionOptions) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const { settings, embedder, imageEmbedder, runDeps, searchDeps, search, collections, documents, status, sync } = await createServices(core, options);
    if (settings.embedding.provider === 'endpoint') await ensureVectorIndex(core, settings.embedding.dims);
    if (imageEmbedder) await ensurePageImageIndex(core, settings.visionRetrieval.dims);
    let counter: Promise<TokenCounter> | undefined;
    const parsers = new ParserPool({ maxMemoryMb: settings.parserMaxMemoryMb });
    server.ext('onPostStop', () => parsers.close());
    const stageDeps = { ...runDeps, embedder, imageEmbedder, parsers, counter: () => (counter ??= createTokenCounter(settings.tokenizer)) };

    server.route([
      ...collectionRoutes(collections),
      ...documentRoutes(documents, settings, search),
      ...statusRoutes(status),
      ...syncRoutes(sync),
    ]);

    const stageExpiry = settings.parseTimeoutSeconds + settings.chunkTimeoutSeconds + settings.embedTimeoutSeconds + 120;
    core.jobs.defineLongTask(STAGE_TASK, stageHandler(stageDeps), {
      concurrency: settings.maxActivities, retryLimit: settings.stageRetries, retryDelaySeconds: 2, retryBackoff: true, expireInSeconds: stageExpiry,
    });
    core.jobs.defineLongTask(RECONCILE_TASK, reconcileHandler(runDeps), { retryLimit: 1, expireInSeconds: 300 });
    await core.jobs.schedule(RECONCILE_TASK, RECONCILE_TASK, RECONCILE_CRON);
    // Grouped by tenant: one sync per tenant at a time, tenants side by side.
    core.jobs.defineLongTask(SYNC_TASK, syncHandler(sync), {
      retryLimit: 1, expireInSeconds: 3600, concurrency: settings.sync.concurrency, groupConcurrency: 1,
    });

    registerFunctions(core, searchDeps);
    core.graphql.extend(graphqlPart({ collections, documents, status, search }));
    readinessCheck(server, settings);
    server.expose('api', createIngestionApi(searchDeps, createPrivateUploads(runDeps, documents)));
  },
};

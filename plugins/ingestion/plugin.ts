// Ingestion: collections, document upload, the staged pipeline (parse, chunk,
// embed, index), revisions, status and retries, sync sources, hybrid search,
// the search_documents/read_document platform functions, GraphQL and CLI.
// Registration only: the logic is in service/, pipeline/, search/.
import type { Server } from '@hapi/hapi';
import Joi from 'joi';
import { coreOf } from '../../core/plugin-contract.ts';
import { EVENT_TYPES } from './event-types.ts';
import { readSettings } from './settings.ts';
import { createTokenCounter, type TokenCounter } from './chunking/tokenizer.ts';
import { createEmbedder, createImageEmbedder } from './embeddings/embedder.ts';
import { ensurePageImageIndex, ensureVectorIndex } from './embeddings/vector-index.ts';
import { createCollectionsService } from './service/collections.ts';
import { createDocumentsService } from './service/documents.ts';
import { createStatusService } from './service/status.ts';
import { createSyncService } from './sync/service.ts';
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
import { hybridSearch, queryImageVector, queryVector } from './search/search.ts';
import { graphqlPart } from './graphql.ts';
import { readinessCheck } from './readiness.ts';

export { cli } from './cli.ts';

export const optionsSchema = Joi.object({
  /** Overrides INGESTION_MAX_CONCURRENT (spec 8: 5 workflows per tenant). */
  maxConcurrent: Joi.number().integer().min(1),
});

export const plugin = {
  name: 'ingestion',
  version: '0.1.0',
  dependencies: ['tenancy'],
  async register(server: Server, options: { maxConcurrent?: number }) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const settings = readSettings(core.config.env, core.config.dataDir, { maxConcurrent: options?.maxConcurrent });
    const embedder = await createEmbedder(settings);
    if (settings.embedding.provider === 'endpoint') await ensureVectorIndex(core, settings.embedding.dims);
    const imageEmbedder = await createImageEmbedder(settings);
    if (imageEmbedder) await ensurePageImageIndex(core, settings.visionRetrieval.dims);
    let counter: Promise<TokenCounter> | undefined;
    const runDeps = { core, settings };
    const parsers = new ParserPool({ maxMemoryMb: settings.parserMaxMemoryMb });
    server.ext('onPostStop', () => parsers.close());
    const stageDeps = { ...runDeps, embedder, imageEmbedder, parsers, counter: () => (counter ??= createTokenCounter(settings.tokenizer)) };

    const collections = createCollectionsService(core);
    const documents = createDocumentsService(runDeps);
    const status = createStatusService(runDeps);
    const sync = createSyncService(runDeps);
    const searchDeps = { embedder, imageEmbedder, logger: core.logger };
    const search = async (tenantId: string, q: Record<string, unknown>) => {
      // Embedded before the transaction: no connection held during the HTTP calls.
      const [vector, imageVector] = await Promise.all([queryVector(searchDeps, String(q.query)), queryImageVector(searchDeps, String(q.query))]);
      const results = await core.withTenant(tenantId, (trx) => hybridSearch(trx, searchDeps, {
        query: String(q.query), collection_ids: q.collection_id as number[] | undefined,
        include_descendants: q.include_descendants as boolean, top_k: q.top_k as number,
      }, vector, imageVector));
      return { query: q.query, mode: vector ? 'hybrid' : 'keyword', results };
    };

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
    server.expose('api', createIngestionApi(searchDeps));
  },
};

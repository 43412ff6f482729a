// The one factory of the ingestion plugin's services and its api
// (services/api.ts): its register builds them here from the core's services
// and the manifest's options (options.ts, validated by the loader for the
// server and the CLI alike; its CLI commands are HTTP clients of the server
// and need none of them).
import type { CoreServices } from 'agent-platform/sdk';
import { createTokenCounter, type TokenCounter } from './chunking/tokenizer.ts';
import { createEmbedder, createImageEmbedder } from './embeddings/embedder.ts';
import { ParserPool } from './pipeline/parser-pool.ts';
import type { StageDeps } from './pipeline/stages.ts';
import { createIngestionApi } from './services/api.ts';
import { createCollectionsService } from './services/collections.ts';
import { createDocumentsService } from './services/documents.ts';
import { createModelsService } from './services/models.ts';
import { createPagesService } from './services/pages.ts';
import { createPrivateUploads } from './services/private.ts';
import { createStatusService } from './services/status.ts';
import { createSyncService } from './services/sync.ts';
import { searchDocuments, type SearchService } from './services/search.ts';
import type { SearchDeps } from './search/search.ts';
import { settingsOf } from './config/settings.ts';
import type { IngestionOptions } from './options.ts';

export async function createServices(core: CoreServices, options: IngestionOptions) {
  const settings = settingsOf(options, core.config.env, core.config.dataDir);
  const embedder = await createEmbedder(settings);
  const imageEmbedder = await createImageEmbedder(settings);
  const runDeps = { core, settings };
  // The tokenizer loads on first use; parser processes start on demand (none in the CLI).
  let counter: Promise<TokenCounter> | undefined;
  const stageDeps: StageDeps = {
    ...runDeps, embedder, imageEmbedder,
    parsers: new ParserPool({ maxMemoryMb: settings.parserMaxMemoryMb }),
    counter: () => (counter ??= createTokenCounter(settings.tokenizer)),
  };
  const searchDeps: SearchDeps = { embedder, imageEmbedder, logger: core.logger };
  const search: SearchService = (tenantId, request) => searchDocuments(core.withTenant, searchDeps, tenantId, request);
  const documents = createDocumentsService(runDeps);
  const privateUploads = createPrivateUploads(runDeps, documents);
  const pages = createPagesService(core);
  return {
    settings,
    runDeps,
    stageDeps,
    searchDeps,
    search,
    collections: createCollectionsService(core),
    documents,
    pages,
    privateUploads,
    status: createStatusService(runDeps),
    sync: createSyncService(runDeps),
    models: createModelsService(core, options, settings, embedder),
    api: createIngestionApi(searchDeps, privateUploads, pages),
  };
}

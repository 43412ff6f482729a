// The HNSW indexes the configured embedders need, made sure of at boot
// (store/vector-indexes.ts says why at boot and not in a migration): for the
// endpoint's text dimension unless the migration has it already, and for the
// image-embedding dimension of page-image retrieval. A local model's dimension
// is known only once it has embedded: other than 384/768/1024/1536 it is
// searched by a scan.
import type { CoreServices } from 'agent-platform/sdk';
import { vectorIndexesStore } from '../store/vector-indexes.ts';
import type { IngestionSettings } from '../config/settings.ts';

/** The chunk dimensions sql/0001_init.sql indexes. */
const BUILT_IN_DIMS = [384, 768, 1024, 1536];
const HNSW_MAX_DIMS = 2000;

const indexable = (dims: number) => Number.isInteger(dims) && dims >= 1 && dims <= HNSW_MAX_DIMS;

export async function ensureVectorIndexes(core: CoreServices, settings: IngestionSettings): Promise<void> {
  const { dims } = settings.embedding;
  if (settings.embedding.provider === 'endpoint' && !BUILT_IN_DIMS.includes(dims)) {
    if (indexable(dims)) await vectorIndexesStore.ensureChunkIndex(core.db, dims);
    else core.logger.warn({ dims }, `ingestion: no HNSW index for ${dims} dimensions (pgvector indexes up to ${HNSW_MAX_DIMS}); vector search scans`);
  }
  if (settings.visionRetrieval.active && indexable(settings.visionRetrieval.dims)) {
    await vectorIndexesStore.ensurePageImageIndex(core.db, settings.visionRetrieval.dims);
  }
}

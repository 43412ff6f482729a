// The HNSW index for the configured embedding dimension. The migration creates
// indexes for the common dimensions (384, 768, 1024, 1536); another dimension
// (up to pgvector's 2000 for HNSW) gets its own partial expression index here,
// at boot, with the system handle (CREATE INDEX IF NOT EXISTS is idempotent).
import { sql } from 'kysely';
import type { CoreServices } from 'agent-platform/sdk';

export const BUILT_IN_DIMS = [384, 768, 1024, 1536];
export const HNSW_MAX_DIMS = 2000;

export async function ensureVectorIndex(core: CoreServices, dims: number): Promise<void> {
  if (BUILT_IN_DIMS.includes(dims)) return;
  if (!Number.isInteger(dims) || dims < 1 || dims > HNSW_MAX_DIMS) {
    core.logger.warn({ dims }, `ingestion: no HNSW index for ${dims} dimensions (pgvector indexes up to ${HNSW_MAX_DIMS}); vector search scans`);
    return;
  }
  await sql.raw(`CREATE INDEX IF NOT EXISTS ingestion_chunks_hnsw_${dims} ON ingestion_chunks
    USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WHERE embedding_dims = ${dims} AND is_current`).execute(core.db);
}

/** The HNSW index on page images for the image-embedding dimension (page-image retrieval). */
export async function ensurePageImageIndex(core: CoreServices, dims: number): Promise<void> {
  if (!Number.isInteger(dims) || dims < 1 || dims > HNSW_MAX_DIMS) return;
  await sql.raw(`CREATE INDEX IF NOT EXISTS ingestion_page_images_hnsw_${dims} ON ingestion_page_images
    USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WHERE embedding_dims = ${dims} AND is_current`).execute(core.db);
}

// HNSW (cosine) indexes for one embedding dimension, each on the expression
// `embedding::vector(D)` and partial on `embedding_dims = D AND is_current`
// (the queries of store/search.ts repeat both). The migration creates the
// chunk indexes of the common dimensions (384, 768, 1024, 1536); these create
// the one of a configured dimension at boot, with the system handle (DDL).
//
// A store call at boot rather than a migration: the dimension is a setting
// (INGESTION_EMBEDDING_DIMS, INGESTION_IMAGE_EMBEDDING_DIMS) read at boot,
// while a migration is fixed SQL applied once per database; a deployment that
// changes the dimension would otherwise need a new migration per value.
import { sql } from 'kysely';
import type { CoreServices } from 'agent-platform/sdk';

type Db = CoreServices['db'];

/** Two processes booting at once may both try: the loser finds the index made (duplicate name). */
const DUPLICATE = new Set(['42P07', '23505']);

async function createIndex(db: Db, statement: string): Promise<void> {
  try {
    await sql.raw(statement).execute(db);
  } catch (err) {
    if (!DUPLICATE.has((err as { code?: string }).code ?? '')) throw err;
  }
}

/** `dims` is an integer of 1–2000 (pgvector's HNSW limit), checked by the caller: it is written into the DDL. */
export const vectorIndexesStore = {
  ensureChunkIndex: (db: Db, dims: number) => createIndex(db, `CREATE INDEX IF NOT EXISTS ingestion_chunks_hnsw_${dims} ON ingestion_chunks
    USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WHERE embedding_dims = ${dims} AND is_current`),

  ensurePageImageIndex: (db: Db, dims: number) => createIndex(db, `CREATE INDEX IF NOT EXISTS ingestion_page_images_hnsw_${dims} ON ingestion_page_images
    USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WHERE embedding_dims = ${dims} AND is_current`),
};

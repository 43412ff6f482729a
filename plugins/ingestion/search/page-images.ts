// Page-image retrieval (INGESTION_VISION_RETRIEVAL_ENABLED): the query,
// embedded by the image-embedding endpoint (a CLIP-style model puts text and
// images in one space), against the current page images by cosine distance.
// A page hit stands for its page's first current chunk, so results stay chunks
// with chunk_id and revision_id (what agents cite); a page with no chunk (a
// drawing with no text at all) cannot be returned. The partial expression HNSW
// index for the configured image dimension is created at boot
// (embeddings/vector-index.ts); the query repeats its cast and predicate.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import { toVectorLiteral } from '../store/revisions.ts';
import type { Ranked } from './keyword.ts';

export async function pageImageRanked(trx: TenantTransaction, vector: number[], model: string, collectionIds: number[] | undefined, limit: number): Promise<Ranked[]> {
  const dims = vector.length;
  if (!Number.isInteger(dims) || dims < 1 || dims > 16000) return [];
  const cast = sql.raw(`vector(${dims})`);
  const inCollections = collectionIds ? sql`AND p.collection_id = ANY(${collectionIds}::int[])` : sql``;
  await sql`SELECT set_config('hnsw.ef_search', ${String(Math.min(1000, Math.max(40, limit)))}, true)`.execute(trx);
  const { rows } = await sql<{ id: string | null }>`
    WITH pages AS (
      SELECT p.revision_id, p.page, p.embedding::${cast} <=> ${toVectorLiteral(vector)}::${cast} AS distance
      FROM ingestion_page_images p
      WHERE p.embedding_dims = ${sql.raw(String(dims))} AND p.is_current AND p.embedding_model = ${model}
        ${inCollections}
      ORDER BY p.embedding::${cast} <=> ${toVectorLiteral(vector)}::${cast}
      LIMIT ${limit}
    )
    SELECT (SELECT c.id FROM ingestion_chunks c
            WHERE c.revision_id = pages.revision_id AND c.page = pages.page AND c.is_current
            ORDER BY c.ordinal LIMIT 1) AS id
    FROM pages ORDER BY distance`.execute(trx);
  return rows.flatMap((row) => (row.id ? [{ id: row.id }] : []));
}

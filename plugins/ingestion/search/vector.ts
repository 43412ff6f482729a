// Vector retrieval: cosine distance on the chunks embedded by the configured
// model, through the HNSW index of that dimension (the index is on
// `embedding::vector(D)` and partial on `embedding_dims = D AND is_current`,
// so the query repeats both to use it).
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import { toVectorLiteral } from '../store/revisions.ts';
import type { Ranked } from './keyword.ts';

export async function vectorRanked(trx: TenantTransaction, vector: number[], model: string, collectionIds: number[] | undefined, limit: number): Promise<Ranked[]> {
  const dims = vector.length;
  if (!Number.isInteger(dims) || dims < 1 || dims > 16000) return [];
  const cast = sql.raw(`vector(${dims})`);
  const inCollections = collectionIds ? sql`AND c.collection_id = ANY(${collectionIds}::int[])` : sql``;
  await sql`SELECT set_config('hnsw.ef_search', ${String(Math.min(1000, Math.max(40, limit)))}, true)`.execute(trx);
  const { rows } = await sql<Ranked>`
    SELECT c.id FROM ingestion_chunks c
    WHERE c.embedding_dims = ${sql.raw(String(dims))} AND c.is_current AND c.embedding_model = ${model}
      ${inCollections}
    ORDER BY c.embedding::${cast} <=> ${toVectorLiteral(vector)}::${cast}
    LIMIT ${limit}`.execute(trx);
  return rows;
}

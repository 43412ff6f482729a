// The queries of hybrid search (search/ decides what to ask and fuses the
// answers). Keyword retrieval and the fuzzy vocabulary go through two SQL
// functions (sql/0001_init.sql) that filter on the caller's tenant
// themselves: under row-level security the GIN indexes could not be used (the
// @@ and % operators are not leakproof). Vector retrieval uses the HNSW index
// of the vector's dimension: each index is on `embedding::vector(D)`, partial
// on `embedding_dims = D AND is_current` (store/vector-indexes.ts), so the
// queries repeat the cast and both predicates.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import { toVectorLiteral } from './revisions.ts';
import './tables.ts';

type Trx = TenantTransaction;

/** pgvector's largest dimension: anything else cannot be a stored embedding (nothing to find). */
const MAX_DIMS = 16000;

const validDims = (vector: number[]) => Number.isInteger(vector.length) && vector.length >= 1 && vector.length <= MAX_DIMS;

/** How many HNSW candidates a scan considers: at least the LIMIT, so filtered rows do not leave it short. */
const setEfSearch = (trx: Trx, limit: number) =>
  sql`SELECT set_config('hnsw.ef_search', ${String(Math.min(1000, Math.max(40, limit)))}, true)`.execute(trx);

const inCollections = (alias: string, collectionIds: number[] | undefined) =>
  (collectionIds ? sql`AND ${sql.ref(`${alias}.collection_id`)} = ANY(${collectionIds}::int[])` : sql``);

export const searchStore = {
  /** Up to `perWord` vocabulary words with trigram similarity ≥ `threshold` for each word. */
  fuzzyTerms: async (trx: Trx, words: string[], threshold: number, perWord: number) =>
    (await sql<{ word: string; term: string }>`
      SELECT word, term FROM ingestion_fuzzy_terms(${words}::text[], ${threshold}, ${perWord})`.execute(trx)).rows,

  /**
   * Live current chunks matching `tsquery` (English or Portuguese stemming, as
   * each chunk's ts_config), best ts_rank_cd first: at most `maxRanked`
   * matches are ranked, `limit` returned.
   */
  keywordCandidates: async (trx: Trx, tsquery: string, collectionIds: number[] | undefined, maxRanked: number, limit: number) =>
    (await sql<{ id: string }>`
      SELECT id FROM ingestion_keyword_candidates(
        to_tsquery('english', ${tsquery}), to_tsquery('portuguese', ${tsquery}),
        ${collectionIds ?? null}::int[], ${maxRanked}, ${limit})`.execute(trx)).rows.map((row) => row.id),

  /** Current chunks embedded by `model`, nearest to `vector` by cosine distance. */
  nearestChunks: async (trx: Trx, vector: number[], model: string, collectionIds: number[] | undefined, limit: number) => {
    if (!validDims(vector)) return [];
    const dims = vector.length;
    const cast = sql.raw(`vector(${dims})`);
    await setEfSearch(trx, limit);
    const { rows } = await sql<{ id: string }>`
      SELECT c.id FROM ingestion_chunks c
      WHERE c.embedding_dims = ${sql.raw(String(dims))} AND c.is_current AND c.embedding_model = ${model}
        ${inCollections('c', collectionIds)}
      ORDER BY c.embedding::${cast} <=> ${toVectorLiteral(vector)}::${cast}
      LIMIT ${limit}`.execute(trx);
    return rows.map((row) => row.id);
  },

  /**
   * Current page images embedded by `model`, nearest to `vector`; each stands
   * for its page's first current chunk (results stay citable chunks), and a
   * page without a chunk is left out.
   */
  nearestPageChunks: async (trx: Trx, vector: number[], model: string, collectionIds: number[] | undefined, limit: number) => {
    if (!validDims(vector)) return [];
    const dims = vector.length;
    const cast = sql.raw(`vector(${dims})`);
    await setEfSearch(trx, limit);
    const { rows } = await sql<{ id: string | null }>`
      WITH pages AS (
        SELECT p.revision_id, p.page, p.embedding::${cast} <=> ${toVectorLiteral(vector)}::${cast} AS distance
        FROM ingestion_page_images p
        WHERE p.embedding_dims = ${sql.raw(String(dims))} AND p.is_current AND p.embedding_model = ${model}
          ${inCollections('p', collectionIds)}
        ORDER BY p.embedding::${cast} <=> ${toVectorLiteral(vector)}::${cast}
        LIMIT ${limit}
      )
      SELECT (SELECT c.id FROM ingestion_chunks c
              WHERE c.revision_id = pages.revision_id AND c.page = pages.page AND c.is_current
              ORDER BY c.ordinal LIMIT 1) AS id
      FROM pages ORDER BY distance`.execute(trx);
    return rows.flatMap((row) => (row.id ? [row.id] : []));
  },

  /** The chunks found, with their document's name; chunks of deleted documents are left out. */
  hits: (trx: Trx, ids: string[]) =>
    trx.selectFrom('ingestion_chunks as c')
      .innerJoin('ingestion_documents as d', 'd.id', 'c.document_id')
      .select(['c.id', 'c.revision_id', 'c.document_id', 'd.name', 'c.collection_id', 'c.page', 'c.section', 'c.text'])
      .where('c.id', 'in', ids)
      .where('d.deleted_at', 'is', null)
      .execute(),
};

// Hybrid search over the latest successful revisions of live documents:
// keyword (full text + fuzzy) and, when an embedder is configured, vector
// retrieval, and with page-image retrieval on, page images (each standing for
// its page's first chunk), fused by reciprocal rank fusion
// (score = Σ 1/(60 + rank)). Without an embedder, or when embedding the query
// fails, keyword alone.
import type { TenantTransaction } from 'agent-platform/sdk';
import type { SearchHit, SearchRequest } from '../api.ts';
import type { Embedder } from '../embeddings/embedder.ts';
import { collectionsStore } from '../store/collections.ts';
import { searchStore } from '../store/search.ts';
import { scopedStore } from '../store/scoped.ts';
import { fuzzyExpansions, keywordRanked, queryWords } from './keyword.ts';

export const DEFAULT_TOP_K = 5;
export const MAX_TOP_K = 50;
const RRF_K = 60;

export interface SearchDeps {
  embedder: Embedder | undefined;
  /** The image-embedding endpoint of page-image retrieval, when on. */
  imageEmbedder?: Embedder;
  logger: { warn(obj: object, msg: string): void };
}

/** Lists of chunk ids, best first, into one score per chunk. */
function fuse(lists: string[][]): Map<string, number> {
  const scores = new Map<string, number>();
  for (const list of lists) {
    list.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + rank + 1)));
  }
  return scores;
}

async function embedQuery(embedder: Embedder | undefined, logger: SearchDeps['logger'], query: string, what: string): Promise<number[] | undefined> {
  if (!embedder) return undefined;
  try {
    const [vector] = await embedder.embed([query], AbortSignal.timeout(15_000));
    return vector;
  } catch (err) {
    logger.warn({ err: (err as Error).message }, `ingestion search: embedding the query failed; ${what}`);
    return undefined;
  }
}

/** The query's vector for chunk embeddings (undefined without an embedder or when it fails). */
export const queryVector = (deps: SearchDeps, query: string) => embedQuery(deps.embedder, deps.logger, query, 'keyword only');

/** The query's vector for page images (undefined without page-image retrieval or when it fails). */
export const queryImageVector = (deps: SearchDeps, query: string) => embedQuery(deps.imageEmbedder, deps.logger, query, 'no page-image retrieval');

/** `vector` / `imageVector`: the query's vectors when the caller embedded it before its transaction (else embedded here). */
export async function hybridSearch(trx: TenantTransaction, deps: SearchDeps, request: SearchRequest, vector?: number[], imageVector?: number[]): Promise<SearchHit[]> {
  const topK = Math.min(MAX_TOP_K, Math.max(1, request.top_k ?? DEFAULT_TOP_K));
  const query = request.query.trim();
  if (query === '') return [];
  // Private collections of other contexts are never searched (store/scoped.ts).
  const searchable = await scopedStore.searchable(trx, request.scope);
  let collectionIds: number[] | undefined;
  if (request.collection_ids && request.collection_ids.length > 0) {
    collectionIds = await collectionsStore.expand(trx, request.collection_ids, request.include_descendants ?? true);
    if (searchable) collectionIds = collectionIds.filter((id) => searchable.has(id));
    if (collectionIds.length === 0) return [];
  } else if (searchable) {
    collectionIds = [...searchable];
    if (collectionIds.length === 0) return [];
  }
  const candidates = Math.max(topK * 4, 40);
  const words = queryWords(query);
  const expansions = await fuzzyExpansions(trx, words);
  const keyword = await keywordRanked(trx, words.map((word) => [word, ...(expansions.get(word) ?? [])]), collectionIds, candidates);
  const embedded = vector ?? (deps.embedder ? await queryVector(deps, query) : undefined);
  const semantic = embedded && deps.embedder ? await searchStore.nearestChunks(trx, embedded, deps.embedder.model, collectionIds, candidates) : [];
  const imageEmbedded = imageVector ?? (deps.imageEmbedder ? await queryImageVector(deps, query) : undefined);
  const pages = imageEmbedded && deps.imageEmbedder ? await searchStore.nearestPageChunks(trx, imageEmbedded, deps.imageEmbedder.model, collectionIds, candidates) : [];
  const scores = [...fuse([keyword, semantic, pages])].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, topK);
  if (scores.length === 0) return [];
  const rows = await searchStore.hits(trx, scores.map(([id]) => id));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return scores.flatMap(([id, score]) => {
    const row = byId.get(id);
    return row ? [{
      chunk_id: row.id, revision_id: row.revision_id, document_id: row.document_id, doc_name: row.name,
      collection_id: row.collection_id, page: row.page, section: row.section, score: Math.round(score * 1e6) / 1e6, text: row.text,
    }] : [];
  });
}

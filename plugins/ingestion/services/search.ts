// Search as the REST route, GraphQL and the search_documents function run it:
// the query is embedded first (no connection held during the embedders' HTTP
// calls), then hybrid search runs in one tenant transaction.
import type { WithTenant } from 'agent-platform/sdk';
import type { SearchHit, SearchRequest } from '../api.ts';
import { hybridSearch, queryImageVector, queryVector, type SearchDeps } from '../search/search.ts';

export interface SearchAnswer {
  query: string;
  /** hybrid when the query had a vector, else keyword. */
  mode: 'hybrid' | 'keyword';
  results: SearchHit[];
}

/** Search in a tenant's documents (the services' `search`). */
export type SearchService = (tenantId: string, request: SearchRequest) => Promise<SearchAnswer>;

/** `withTenant`: the core's, or a platform function's (its context's). */
export async function searchDocuments(withTenant: WithTenant, deps: SearchDeps, tenantId: string, request: SearchRequest): Promise<SearchAnswer> {
  const [vector, imageVector] = await Promise.all([queryVector(deps, request.query), queryImageVector(deps, request.query)]);
  const results = await withTenant(tenantId, (trx) => hybridSearch(trx, deps, request, vector, imageVector));
  return { query: request.query, mode: vector ? 'hybrid' : 'keyword', results };
}

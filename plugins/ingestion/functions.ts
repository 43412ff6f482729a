// Platform functions for agents and workflow ACTION steps. Every chunk in a
// result carries `chunk_id` and `revision_id`: the citations plugin observes
// these results to know which chunks an execution context was shown.
import type { CoreServices } from 'agent-platform/sdk';
import { DEFAULT_TOP_K, MAX_TOP_K, type SearchDeps } from './search/search.ts';
import { searchDocuments } from './services/search.ts';
import type { SearchRequest } from './api.ts';
import { readDocument, type ReadRequest } from './services/reader.ts';
import { scopeOf } from './services/private.ts';

export function registerFunctions(core: CoreServices, deps: SearchDeps): void {
  core.functions.register('search_documents', {
    description: 'Search the ingested documents of the current tenant (hybrid keyword and semantic search). '
      + 'Returns the best matching chunks with chunk_id, revision_id, doc_name, page, section, score and text; cite chunks by chunk_id.',
    parameters: {
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 2000, description: 'What to look for, in natural language or keywords' },
        collection_ids: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 100, description: 'Only these collections (and their sub-collections)' },
        include_descendants: { type: 'boolean', description: 'Include sub-collections of collection_ids (default true)' },
        top_k: { type: 'integer', minimum: 1, maximum: MAX_TOP_K, description: `How many chunks (default ${DEFAULT_TOP_K})` },
      },
      required: ['query'],
      additionalProperties: false,
    },
    // Reading the tenant's documents: any member (core/functions/access.ts).
    roles: [],
    handler: async (args, context) => {
      // The caller's context also searches its own private collection (an embed session's uploads).
      const request = { ...(args as SearchRequest), scope: scopeOf(context.executionContext) };
      const { query, results } = await searchDocuments(context.withTenant, deps, context.tenantId, request);
      return { query, results };
    },
  });
  core.functions.register('read_document', {
    description: 'Read an ingested document (its latest revision) as chunks, optionally one page or the sections whose title contains a text. '
      + 'Each chunk has chunk_id and revision_id for citations; page through with offset.',
    parameters: {
      properties: {
        document_id: { type: 'string', format: 'uuid', description: 'The document to read' },
        page: { type: 'integer', minimum: 0, description: 'Only this page (1-based; 0 for formats without pages)' },
        section: { type: 'string', minLength: 1, maxLength: 500, description: 'Only sections whose title contains this text' },
        offset: { type: 'integer', minimum: 0, description: 'Skip this many chunks (from next_offset)' },
        max_chunks: { type: 'integer', minimum: 1, maximum: 100, description: 'At most this many chunks (default 20)' },
      },
      required: ['document_id'],
      additionalProperties: false,
    },
    roles: [],
    handler: (args, context) => context.withTenant(context.tenantId, (trx) => readDocument(trx, args as ReadRequest, scopeOf(context.executionContext))),
  });
}

// The citations REST routes. Auth: a bearer token of a member of the tenant,
// or an API key of the tenant (X-API-Key), for every citation route; the
// tenant comes from `tenant_id`.
// An API key (a client surface, possibly in a public page) sees and
// re-verifies only its own client's citations.
// The chat status route takes X-API-Key and answers only for the
// key's tenant and client; it is an end-user surface, so an embed token
// (plugins/embed) may ask too, about its own sessions only.
import type { Request, ServerRoute } from '@hapi/hapi';
import { forbidden, principalOf, tenantOf } from 'agent-platform/sdk';
import type { CitationFilter } from '../store/citations.ts';
import type { CitationsService } from '../services/citations.ts';
import * as s from '../schemas.ts';

const tags = ['api', 'citations'];
const tenantAuth = { strategies: ['bearer', 'api-key'] };
const member = { tenant: 'required' } as const;

export function filterOf(query: Record<string, unknown>): CitationFilter {
  const filter: CitationFilter = {};
  for (const key of ['document_id', 'execution_context_type', 'execution_context_id', 'verification_status', 'document_name'] as const) {
    if (query[key] !== undefined) (filter as Record<string, unknown>)[key] = query[key];
  }
  if (query.collection_id !== undefined) filter.collection_id = query.collection_id as number;
  if (query.date_from !== undefined) filter.date_from = query.date_from as Date;
  if (query.date_to !== undefined) filter.date_to = query.date_to as Date;
  return filter;
}

/** The client an API key is bound to: its requests see only that client's citations. */
function keyClient(request: Request): number | undefined {
  const principal = principalOf(request);
  return principal.kind === 'api_key' ? principal.clientId : undefined;
}

/** The query's filters, narrowed to an API key's own client. */
function scopedFilter(request: Request): CitationFilter {
  const filter = filterOf(request.query as Record<string, unknown>);
  const clientId = keyClient(request);
  return clientId === undefined ? filter : { ...filter, client_id: clientId };
}

/** Who asked, as an execution context (a bulk verification's verified_by). */
function requester(request: Request) {
  const principal = principalOf(request);
  return { type: 'api_request', id: `${principal.kind}:${principal.sub}` };
}

export function citationsRoutes(service: CitationsService): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/citations',
      options: {
        auth: tenantAuth, tags, plugins: { platform: member },
        description: 'List citations, newest first, with the filters below',
        notes: `skip/limit paging: limit defaults to ${s.DEFAULT_LIMIT}, at most ${s.MAX_LIMIT}; total counts every match.`,
        validate: { query: s.listQuery }, response: { schema: s.citationList },
      },
      handler: (request) => {
        const query = request.query as Record<string, unknown>;
        return service.list(tenantOf(request), scopedFilter(request), query.skip as number, query.limit as number);
      },
    },
    {
      method: 'GET', path: '/api/citations/stats',
      options: {
        auth: tenantAuth, tags, plugins: { platform: member },
        description: 'Counts of citations per verification status, and their total (filters as for the list)',
        validate: { query: s.statsQuery }, response: { schema: s.stats },
      },
      handler: (request) => service.stats(tenantOf(request), scopedFilter(request)),
    },
    {
      method: 'POST', path: '/api/citations/verify',
      options: {
        auth: tenantAuth, tags, plugins: { platform: member },
        description: 'Verify citations again in the background: they are marked pending now and verified by a job (202)',
        validate: { query: s.tenantQuery, payload: s.bulkVerifyPayload }, response: { schema: s.bulkVerifyResult },
      },
      handler: async (request, h) => {
        const { citation_ids: ids } = request.payload as { citation_ids: string[] };
        return h.response(await service.queueVerification(tenantOf(request), ids, requester(request), keyClient(request))).code(202);
      },
    },
    {
      method: 'GET', path: '/api/citations/{citation_id}',
      options: {
        auth: tenantAuth, tags, plugins: { platform: member },
        description: 'Read one citation',
        validate: { params: s.citationParams, query: s.tenantQuery }, response: { schema: s.citation },
      },
      handler: (request) => service.get(tenantOf(request), (request.params as { citation_id: string }).citation_id.toLowerCase(), keyClient(request)),
    },
    {
      method: 'GET', path: '/api/chat/{session_id}/citation/{chunk_id}/{revision_id}/status',
      options: {
        auth: { strategies: ['api-key', 'bearer'] }, tags, plugins: { platform: { ...member, endUser: true } },
        description: 'Verification status of a chunk cited in a chat session (X-API-Key of the session\'s tenant and client, or an embed token of its owner)',
        notes: 'found is false for a session, chunk or revision with no citation visible to this key (another tenant\'s or client\'s included).',
        validate: { params: s.chatStatusParams }, response: { schema: s.chatStatus },
      },
      handler: (request) => {
        const principal = principalOf(request);
        const { session_id: sessionId, chunk_id: chunkId, revision_id: revisionId } = request.params as Record<string, string>;
        if (principal.kind === 'embed') {
          const owner = `embed:${principal.clientId}:${principal.externalUserId}`;
          return service.chatStatusOfOwner(principal.tenantId, principal.clientId, owner, sessionId, chunkId, revisionId);
        }
        if (principal.kind !== 'api_key') throw forbidden('This endpoint takes an API key (X-API-Key) or an embed token', 'API_KEY_REQUIRED');
        return service.chatStatus(principal.tenantId, principal.clientId, sessionId, chunkId, revisionId);
      },
    },
  ];
}

// REST routes of ingestion status: per-document status, aggregates, error listings
// and retry-ingestion, for collections and sync sources.
import type { ServerRoute } from '@hapi/hapi';
import { tenantOf } from 'agent-platform/sdk';
import type { RetryStatus, StatusService } from '../services/status.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const member = { tenant: 'required' } as const;
const tags = ['api', 'ingestion'];

export function statusRoutes(status: StatusService): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/admin/documents/{document_id}/ingestion-status',
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'Ingestion status of a document',
        validate: { params: s.documentIdParams, query: s.tenantQuery }, response: { schema: s.ingestionStatus },
      },
      handler: (request) => status.documentStatus(tenantOf(request), request.params.document_id as string),
    },
    {
      method: 'GET', path: '/api/admin/collections/{collection_id}/ingestion-status',
      options: {
        auth: 'bearer', tags, plugins: { platform: member },
        description: 'Aggregate ingestion status of a collection (and its sub-collections unless include_descendants=false)',
        validate: { params: s.collectionIdParams, query: s.aggregateQuery }, response: { schema: s.aggregateStatus },
      },
      handler: (request) => {
        const q = request.query as { include_descendants: boolean; window_minutes: number };
        return status.collectionStatus(tenantOf(request), Number(request.params.collection_id), q.include_descendants, q.window_minutes);
      },
    },
    {
      method: 'GET', path: '/api/admin/collections/{collection_id}/ingestion-errors',
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'Failed documents of a collection tree with their parser errors',
        validate: { params: s.collectionIdParams, query: s.errorsQuery },
      },
      handler: (request) => {
        const q = request.query as { include_descendants: boolean; skip: number; limit: number };
        return status.collectionErrors(tenantOf(request), Number(request.params.collection_id), q.include_descendants, q.skip, q.limit);
      },
    },
    {
      method: 'POST', path: '/api/admin/collections/{collection_id}/retry-ingestion',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin },
        description: 'Put the documents of the requested statuses (error by default, or pending) back to pending; a reconciler re-drives them at a limited rate',
        validate: { params: s.collectionIdParams, query: s.retryQuery }, response: { schema: s.retryResult },
      },
      handler: (request) => status.retryCollection(tenantOf(request), Number(request.params.collection_id), (request.query as { status: RetryStatus[] }).status),
    },
    {
      method: 'GET', path: '/api/admin/document-sync/sources/{source_id}/status',
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'Aggregate ingestion status of a sync source\'s documents',
        validate: { params: s.sourceIdParams, query: s.sourceAggregateQuery }, response: { schema: s.aggregateStatus },
      },
      handler: (request) => status.sourceStatus(tenantOf(request), Number(request.params.source_id), (request.query as { window_minutes: number }).window_minutes),
    },
    {
      method: 'GET', path: '/api/admin/document-sync/sources/{source_id}/errors',
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'Failed documents of a sync source with their parser errors',
        validate: { params: s.sourceIdParams, query: s.sourceErrorsQuery },
      },
      handler: (request) => {
        const q = request.query as { skip: number; limit: number };
        return status.sourceErrors(tenantOf(request), Number(request.params.source_id), q.skip, q.limit);
      },
    },
    {
      method: 'POST', path: '/api/admin/document-sync/sources/{source_id}/retry-ingestion',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'retry-ingestion for a sync source\'s documents (same as for a collection)',
        validate: { params: s.sourceIdParams, query: s.retryQuery }, response: { schema: s.retryResult },
      },
      handler: (request) => status.retrySource(tenantOf(request), Number(request.params.source_id), (request.query as { status: RetryStatus[] }).status),
    },
  ];
}

// The ingestion plugin's HTTP-facing errors, with stable codes (409 on
// reingest while ingesting, 429 over the tenant's concurrency limit; 413 over
// INGESTION_MAX_DOC_SIZE; 415 naming the supported types).
import { domainError, notFound } from 'agent-platform/sdk';
import { SUPPORTED_CONTENT_TYPES } from './parsers/content-type.ts';

export const ingestionErrors = {
  collectionNotFound: (id: number) => notFound(`Collection not found: ${id}`, 'COLLECTION_NOT_FOUND'),
  documentNotFound: (id: string) => notFound(`Document not found: ${id}`, 'DOCUMENT_NOT_FOUND'),
  sourceNotFound: (id: number) => notFound(`Sync source not found: ${id}`, 'SYNC_SOURCE_NOT_FOUND'),
  revisionNotFound: (n: number) => notFound(`Revision not found: ${n}`, 'REVISION_NOT_FOUND'),
  tooLarge: (max: number) => domainError(413, `Document too large (max ${max} bytes)`, 'DOCUMENT_TOO_LARGE'),
  unsupported: (detected: string | undefined) => domainError(
    415,
    `Unsupported content type${detected ? ` ${detected}` : ''}; supported: ${SUPPORTED_CONTENT_TYPES.join(', ')}`,
    'UNSUPPORTED_CONTENT_TYPE',
  ),
  ingesting: (id: string) => domainError(409, `Document ${id} is being ingested; reingest when it is done`, 'DOCUMENT_INGESTING'),
  deleted: (id: string) => domainError(409, `Document ${id} is deleted`, 'DOCUMENT_DELETED'),
  quota: (limit: number, retryAfterSeconds: number) => {
    const error = domainError(
      429,
      `Too many ingestions in progress for this tenant (limit ${limit}); retry later`,
      'INGESTION_QUOTA_EXCEEDED',
    );
    error.output.headers['Retry-After'] = String(retryAfterSeconds);
    return error;
  },
  collectionNotEmpty: (id: number, what: string) => domainError(409, `Collection ${id} still has ${what}`, 'COLLECTION_NOT_EMPTY'),
  collectionCycle: () => domainError(400, 'A collection cannot be moved under itself or its descendants', 'COLLECTION_CYCLE'),
};

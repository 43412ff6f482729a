// joi schemas of the citations REST API (requests validated, responses
// documented in /docs). Unknown query or body fields are rejected.
import Joi from 'joi';
import { MAX_BULK_VERIFY, STATUSES } from './services/citations.ts';

/** GET /api/citations: the largest page. */
export const MAX_LIMIT = 500;
export const DEFAULT_LIMIT = 50;

const MATCH_TYPES = ['exact', 'normalized', 'fuzzy', 'not_found'];
const tenantId = Joi.string().max(64).description('Tenant alias');

const filterFields = {
  document_id: Joi.string().guid().description('Cited document'),
  collection_id: Joi.number().integer().min(0).max(2_147_483_647).description('Collection of the cited document'),
  execution_context_type: Joi.string().max(64).description('chat_session, workflow_execution or function_call'),
  execution_context_id: Joi.string().max(256),
  verification_status: Joi.string().valid(...STATUSES),
  document_name: Joi.string().max(1000).description('Case-insensitive partial match on the snapshot of the document name'),
  date_from: Joi.date().iso().description('created_at at or after (ISO 8601)'),
  date_to: Joi.date().iso().description('created_at at or before (ISO 8601)'),
};

export const listQuery = Joi.object({
  tenant_id: tenantId.required(),
  ...filterFields,
  skip: Joi.number().integer().min(0).max(1_000_000).default(0),
  limit: Joi.number().integer().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
}).label('CitationListQuery');

export const statsQuery = Joi.object({ tenant_id: tenantId.required(), ...filterFields }).label('CitationStatsQuery');

export const tenantQuery = Joi.object({ tenant_id: tenantId }).label('CitationTenantQuery');

export const citationParams = Joi.object({ citation_id: Joi.string().guid().required() });

export const chatStatusParams = Joi.object({
  session_id: Joi.string().max(256).required(),
  chunk_id: Joi.string().guid().required(),
  revision_id: Joi.string().max(200).required(),
});

export const bulkVerifyPayload = Joi.object({
  citation_ids: Joi.array().items(Joi.string().guid()).min(1).max(MAX_BULK_VERIFY).unique().required(),
}).label('BulkVerifyRequest');

export const citation = Joi.object({
  id: Joi.string().guid(),
  chunk_id: Joi.string(),
  revision_id: Joi.string(),
  document_id: Joi.string().allow(null),
  collection_id: Joi.number().integer().allow(null),
  document_name: Joi.string().allow(''),
  tenant_id: Joi.string(),
  execution_context_type: Joi.string(),
  execution_context_id: Joi.string(),
  quoted_text: Joi.string().allow('', null),
  page: Joi.number().integer().allow(null),
  section: Joi.string().allow('', null),
  verification_status: Joi.string().valid(...STATUSES),
  match_type: Joi.string().valid(...MATCH_TYPES).allow(null),
  match_score: Joi.number().allow(null),
  matched_span_start: Joi.number().integer().allow(null),
  matched_span_end: Joi.number().integer().allow(null),
  verified_at: Joi.string().allow(null),
  created_at: Joi.string(),
  client_id: Joi.number().integer().allow(null),
  verified_by_context_type: Joi.string().allow(null),
  verified_by_context_id: Joi.string().allow(null),
}).label('Citation');

export const citationList = Joi.object({
  items: Joi.array().items(citation),
  total: Joi.number().integer(),
  skip: Joi.number().integer(),
  limit: Joi.number().integer(),
}).label('CitationList');

export const stats = Joi.object({
  verified: Joi.number().integer(),
  failed: Joi.number().integer(),
  pending: Joi.number().integer(),
  unverified: Joi.number().integer(),
  out_of_provenance: Joi.number().integer(),
  total: Joi.number().integer(),
}).label('CitationStats');

export const bulkVerifyResult = Joi.object({
  queued: Joi.array().items(Joi.string()),
  not_found: Joi.array().items(Joi.string()),
}).label('BulkVerifyResult');

export const chatStatus = Joi.object({
  found: Joi.boolean(),
  verification_status: Joi.string().valid(...STATUSES).allow(null),
  match_type: Joi.string().valid(...MATCH_TYPES).allow(null),
  match_score: Joi.number().allow(null),
  matched_span_start: Joi.number().integer().allow(null),
  matched_span_end: Joi.number().integer().allow(null),
  verified_at: Joi.string().allow(null),
}).label('ChatCitationStatus');

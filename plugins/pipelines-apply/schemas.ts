// joi schemas of the apply routes (and so of the OpenAPI document). The
// envelope's structure is checked here (400); apiVersion and kind are checked
// per document (an `error` result), so that one bad document does not hide
// the plans of the others.
import { boundedJson, Joi } from 'agent-platform/sdk';

const ACTIONS = ['create', 'patch', 'noop', 'would-409', 'error'];
const STREAM_ACTIONS = ['create', 'patch', 'noop', 'unmanaged'];

export const applyDocument = Joi.object({
  apiVersion: Joi.string().min(1).max(100).required().description('agent-platform/v1'),
  kind: Joi.string().min(1).max(100).required().description('A registered kind: Source, Transform, Pipeline, ...'),
  metadata: Joi.object({ name: Joi.string().min(1).max(200).required() }).unknown(true).required(),
  spec: boundedJson('ApplySpec').required().description('The kind\'s specification'),
}).label('ApplyDocument');

export function envelope(maxDocuments: number) {
  return Joi.object({
    docs: Joi.array().items(applyDocument).min(1).max(maxDocuments).required().description('Ordered: a document may name one declared before it'),
    allow_deprecate: Joi.boolean().default(false).description('Plans may deprecate or archive what the documents no longer declare (kinds that support it)'),
    live_ontology: Joi.boolean().default(false).description('Backing datasets are also preflighted read-only against their ontology'),
  }).label('ApplyEnvelope');
}

const documentResult = Joi.object({
  index: Joi.number().integer().description('Position of the document in docs (0-based)'),
  kind: Joi.string(),
  name: Joi.string(),
  action: Joi.string().valid(...ACTIONS),
  message: Joi.string(),
  changes: Joi.array().items(Joi.string()).description('Changed field paths (patch)'),
  streams: Joi.array().items(Joi.object({ name: Joi.string(), action: Joi.string().valid(...STREAM_ACTIONS) }).label('ApplyStreamResult')),
  preflight: Joi.object({
    valid: Joi.boolean(),
    checks: Joi.array().items(Joi.object({ check: Joi.string(), ok: Joi.boolean(), message: Joi.string() }).label('ApplyPreflightCheck')),
  }).label('ApplyPreflight'),
  id: Joi.string().description('The object\'s id (POST /apply; dry-run: when it exists already)'),
}).label('ApplyDocumentResult');

export const applyResult = Joi.object({
  dry_run: Joi.boolean(),
  applied: Joi.boolean().description('true: every document was applied in one transaction'),
  results: Joi.array().items(documentResult),
}).label('ApplyResult');

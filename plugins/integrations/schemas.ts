// joi schemas of the integrations routes (and so of the OpenAPI document at /docs).
import Joi from 'joi';
import { AUTH_SCHEMES } from './openapi/model.ts';

export const SPEC_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const FUNCTION_NAME = /^[a-z][a-z0-9_]{0,63}$/;
export const SECRET_KEY = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/;

const named = (pattern: RegExp, what: string) => Joi.string().pattern(pattern).messages({ 'string.pattern.base': `{{#label}} must be ${what}` });

export const specName = named(SPEC_NAME, 'letters, digits, _ . - (up to 64, starting with a letter or digit)');
export const functionName = named(FUNCTION_NAME, 'snake_case, starting with a letter, up to 64 characters');
export const secretKey = named(SECRET_KEY, 'letters, digits, _ . : - (up to 128)');
const headerName = named(HEADER_NAME, 'an HTTP header name');
const httpUrl = Joi.string().uri({ scheme: ['http', 'https'] }).max(4096);
// Never a pattern on a secret: joi's pattern message would repeat the value.
const secretValue = Joi.string().min(1).max(16_384);

const list = (what: string) => Joi.alternatives(Joi.array().items(Joi.string().max(500)).max(1000), Joi.string().max(50_000))
  .description(`${what}: an array, or comma-separated text`);

export function importBody(maxSpecBytes: number) {
  return Joi.object({
    source: httpUrl.description('URL of the OpenAPI description (JSON or YAML)'),
    spec: Joi.alternatives(Joi.object().unknown(true), Joi.string().max(maxSpecBytes)).description('The document itself: an object, or JSON/YAML text'),
    // hapi hands a file part declared application/json over parsed (an object), text/* as a string.
    file: Joi.alternatives(Joi.binary().max(maxSpecBytes), Joi.object().unknown(true))
      .description('multipart/form-data only: the document as an uploaded file'),
    name: specName.required().description('Name of the imported spec; the functions\' `source` and the credentials\' service_name'),
    prefix: Joi.string().allow('').max(32).description('Put before every function name (snake_case, joined with _); default: the name in snake_case'),
    dry_run: Joi.boolean().default(true).description('Preview only (default); false performs the import'),
    auth_scheme: Joi.string().valid(...AUTH_SCHEMES).description('Default: inferred from the document\'s security schemes'),
    auth_header: headerName.description('Header carrying the credential; default Authorization (apiKey: the header the document names)'),
    auth_value: secretValue.description('Default credential; may contain ${VAR} placeholders resolved from the environment at call time. Never returned'),
    auth_query_param: Joi.string().max(128).description('apiKey sent in this query parameter'),
    auth_credential_source: secretKey.description('Key of the default credential in the tenant\'s secret store (instead of auth_value)'),
    auth_token_url: httpUrl.description('oauth2: token URL when the document names none'),
    base_url: httpUrl.description('Overrides the document\'s server URL'),
    include_tags: list('Only operations with one of these tags'),
    exclude_tags: list('No operations with one of these tags'),
    include_paths: list('Only operations whose path matches one of these globs (* one segment, ** any)'),
    exclude_paths: list('No operations whose path matches one of these globs'),
    include_operations: list('Only these operations (operationId or "METHOD /path")'),
    exclude_operations: list('Not these operations'),
    function_names: Joi.alternatives(Joi.object().pattern(Joi.string().max(500), Joi.string().max(64)), Joi.string().max(50_000))
      .description('Function name overrides by operation: {"getPet": "pet_read"} or "getPet=pet_read,..." (used as given, without prefix)'),
  }).xor('source', 'spec', 'file').label('ImportOpenApi');
}

export const specIdParam = Joi.object({ spec_id: Joi.string().guid().required() });
export const functionNameParam = Joi.object({ name: functionName.required() });
export const syncQuery = Joi.object({ force: Joi.boolean().default(false).description('Sync even when the content hash is unchanged') });

export const paging = Joi.object({
  skip: Joi.number().integer().min(0).default(0),
  limit: Joi.number().integer().min(1).max(500).default(50),
});

export const functionQuery = paging.keys({
  source: specName.description('Only functions of this spec'),
  status: Joi.string().valid('active', 'removed'),
});

export const editFunction = Joi.object({ description: Joi.string().min(1).max(4000).required() }).label('EditImportedFunction');

export const credentialBody = Joi.object({
  service_name: specName.required().description('Name of the imported spec the credential is for'),
  value: secretValue.required().description('The secret credential value (never returned)'),
  header: headerName.allow(null).description('Header that carries it; default: the spec\'s'),
}).label('ClientCredential');

export const sessionCredentialBody = credentialBody.keys({
  ttl_seconds: Joi.number().integer().min(1).max(30 * 86400).description('Forget the credential after this long'),
}).label('SessionCredential');

export const clientParam = Joi.object({ client_id: Joi.number().integer().min(1).required() });
export const clientServiceParam = clientParam.keys({ service_name: specName.required() });
export const sessionParam = Joi.object({ session_id: named(SESSION_ID, 'a session id').required() });
export const sessionServiceParam = sessionParam.keys({ service_name: specName.required() });
export const secretParam = Joi.object({ key: secretKey.required() });
export const secretBody = Joi.object({ value: secretValue.required() }).label('Secret');

const auth = Joi.object({
  scheme: Joi.string(), header: Joi.string().allow(null), query_param: Joi.string().allow(null), credential_source: Joi.string().allow(null),
  token_url: Joi.string().allow(null), scopes: Joi.array().items(Joi.string()), value_set: Joi.boolean(), inferred: Joi.boolean(),
}).label('IntegrationAuth');

export const spec = Joi.object({
  id: Joi.string().guid(), name: Joi.string(), prefix: Joi.string().allow(''), source_kind: Joi.string().valid('url', 'file', 'inline'),
  source: Joi.string().allow(null), content_hash: Joi.string(), status: Joi.string().valid('active', 'sync_failed'),
  format: Joi.string(), title: Joi.string().allow(''), api_version: Joi.string().allow(''), base_url: Joi.string().allow(null),
  function_count: Joi.number().integer(), removed_count: Joi.number().integer(), auth,
  settings: Joi.object().unknown(true), warnings: Joi.array().items(Joi.object().unknown(true)),
  last_sync_at: Joi.date().allow(null), last_sync_result: Joi.string().allow(null), last_error: Joi.string().allow(null),
  version: Joi.number().integer(), created_at: Joi.date(), updated_at: Joi.date(),
}).label('IntegrationSpec');

export const importedFunction = Joi.object({
  name: Joi.string(), source: Joi.string(), spec_id: Joi.string(), operation: Joi.string(), operation_id: Joi.string().allow(null),
  method: Joi.string(), path: Joi.string(), summary: Joi.string().allow(''), description: Joi.string().allow(''), description_edited: Joi.boolean(),
  parameters: Joi.object().unknown(true).description('name → {location: path|query|header|body, required, schema, description?, original_name?}'),
  json_schema: Joi.object().unknown(true), auth, status: Joi.string().valid('active', 'removed'),
  warnings: Joi.array().items(Joi.object().unknown(true)), version: Joi.number().integer(),
  created_at: Joi.date(), updated_at: Joi.date(), removed_at: Joi.date().allow(null),
}).label('ImportedFunction');

export const listOf = (item: Joi.Schema, label: string) =>
  Joi.object({ items: Joi.array().items(item), total: Joi.number().integer(), skip: Joi.number(), limit: Joi.number() }).label(label);

export const importResult = Joi.object({
  dry_run: Joi.boolean(), spec: Joi.object().unknown(true), existing: Joi.object().unknown(true).allow(null),
  changes: Joi.object({ create: Joi.number(), update: Joi.number(), unchanged: Joi.number(), remove: Joi.number() }),
  functions: Joi.array().items(Joi.object().unknown(true)), skipped: Joi.array().items(Joi.object().unknown(true)),
  warnings: Joi.array().items(Joi.object().unknown(true)), conflicts: Joi.array().items(Joi.object().unknown(true)),
}).label('ImportResult');

export const syncResult = Joi.object({
  status: Joi.string().valid('synced', 'skipped'), spec, previous_hash: Joi.string(), content_hash: Joi.string(),
  changes: Joi.object().unknown(true), functions: Joi.array().items(Joi.object().unknown(true)), warnings: Joi.array().items(Joi.object().unknown(true)),
}).label('SyncResult');

export const credentialView = Joi.object({
  client_id: Joi.number(), session_id: Joi.string(), service_name: Joi.string(), header: Joi.string().allow(null), value_set: Joi.boolean(),
  expires_at: Joi.date().allow(null), created_at: Joi.date(), updated_at: Joi.date(),
}).label('CredentialView');

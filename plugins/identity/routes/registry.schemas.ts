// joi schemas of the schema-library and registry routes (and so of the OpenAPI document).
import { boundedJson, Joi } from 'agent-platform/sdk';

const segment = Joi.string().pattern(/^[a-z0-9_]{1,63}$/);
export const fullId = Joi.string().pattern(/^[a-z0-9_]{1,63}\/[a-z0-9_]{1,63}\/[a-z0-9_]{1,63}$/).description('<library>/<domain>/<schema>, e.g. sdm/urban_services/street_light');
const subject = Joi.string().pattern(/^[A-Za-z0-9_][A-Za-z0-9_./-]{0,199}$/).description('The registry subject: [A-Za-z0-9_./-], up to 200 characters');
const domain = Joi.string().pattern(/^[A-Za-z0-9_][A-Za-z0-9_ .-]{0,99}$/);
const source = Joi.string().valid('registered', 'discovered', 'library');

export const libraryParams = Joi.object({ library_id: segment.required() });
export const domainParams = Joi.object({ library_id: segment.required(), domain: segment.required() });
export const schemaParams = Joi.object({ library_id: segment.required(), schema_id: segment.required() });
export const fullIdParams = Joi.object({ full_id: fullId.required() });
export const librarySearchQuery = Joi.object({
  q: Joi.string().max(200).allow(''), domain: segment, library_id: segment, limit: Joi.number().integer().min(1).max(100).default(20),
});
export const validateBody = Joi.object({ data: boundedJson('ValidationData').required().description('The payload to validate') }).label('SchemaValidateInput');

const registerFields = {
  subject: subject.required(),
  domain,
  description: Joi.string().allow('').max(2000),
  schema: boundedJson('JsonSchema').required().description('JSON Schema draft-07'),
};
export const registerBody = Joi.object(registerFields).label('RegistryRegisterInput');
export const bulkRegisterBody = Joi.object({ schemas: Joi.array().items(Joi.object(registerFields).label('RegistryBulkItem')).min(1).max(100).required() }).label('RegistryBulkRegisterInput');
export const discoverBody = Joi.object({
  dataset_id: Joi.string().max(400).required().description('A dataset the tenant may read'),
  subject, domain, description: Joi.string().allow('').max(2000),
}).label('RegistryDiscoverInput');
export const syncCatalogBody = Joi.object({ library_id: segment.description('Only this library (default: all)') }).label('RegistrySyncCatalogInput');
export const registryQuery = Joi.object({
  subject, domain, source,
  limit: Joi.number().integer().min(1).max(500).default(100), offset: Joi.number().integer().min(0).max(1_000_000).default(0),
});
export const registrySearchBody = Joi.object({
  q: Joi.string().min(1).max(200).required(), domain, source, limit: Joi.number().integer().min(1).max(100).default(20),
}).label('RegistrySearchInput');
export const registryValidateBody = Joi.object({
  subject: subject.required(), version: Joi.number().integer().min(1).max(1_000_000).description('default: latest'),
  data: boundedJson('ValidationData').required(),
}).label('RegistryValidateInput');

const any = Joi.object().unknown(true);
const summaryFields = {
  full_id: Joi.string(), library_id: Joi.string(), domain: Joi.string(), schema_id: Joi.string(), title: Joi.string(),
  description: Joi.string(), version: Joi.string(), properties: Joi.array().items(Joi.string()),
};
export const schemaSummary = Joi.object(summaryFields).label('LibrarySchemaSummary');
export const librarySchema = Joi.object({ ...summaryFields, schema: any }).label('LibrarySchema');
export const libraryList = Joi.object({
  items: Joi.array().items(Joi.object({
    id: Joi.string(), name: Joi.string(), description: Joi.string(), version: Joi.string(), domains: Joi.array().items(Joi.string()), schema_count: Joi.number().integer(),
  }).label('SchemaLibrary')),
}).label('SchemaLibraryList');
export const domainList = Joi.object({
  library_id: Joi.string(),
  items: Joi.array().items(Joi.object({ id: Joi.string(), name: Joi.string(), description: Joi.string(), schema_count: Joi.number().integer() }).label('SchemaDomain')),
}).label('SchemaDomainList');
export const domainSchemas = Joi.object({ library_id: Joi.string(), domain: Joi.string(), items: Joi.array().items(schemaSummary) }).label('SchemaDomainSchemas');
export const librarySearchResult = Joi.object({ items: Joi.array().items(Joi.object({ ...summaryFields, score: Joi.number() }).label('LibrarySearchHit')) }).label('LibrarySearchResult');
const validationErrors = Joi.array().items(Joi.object({
  path: Joi.string().allow('').description('JSON pointer of the offending value'), message: Joi.string(), keyword: Joi.string(),
}).label('ValidationError'));
export const libraryValidation = Joi.object({ full_id: Joi.string(), valid: Joi.boolean(), errors: validationErrors }).label('LibraryValidationResult');
export const sdmIndex = Joi.object({ schema_count: Joi.number().integer(), libraries: Joi.array().items(any) }).label('SdmIndex');

const entryFields = {
  id: Joi.string(), subject: Joi.string(), version: Joi.number().integer(), domain: Joi.string().allow(null), description: Joi.string().allow(''),
  schema: any, fingerprint: Joi.string(), source, dataset_id: Joi.string().allow(null), created_by: Joi.string().allow(null), created_at: Joi.date(),
};
export const registryEntry = Joi.object({ ...entryFields, created: Joi.boolean().description('false: equal to the latest version, nothing stored') }).label('RegistrySchema');
export const registryList = Joi.object({
  items: Joi.array().items(Joi.object(entryFields).label('RegistrySchemaListItem')), total: Joi.number().integer(), limit: Joi.number().integer(), offset: Joi.number().integer(),
}).label('RegistrySchemaList');
export const bulkResult = Joi.object({
  items: Joi.array().items(Joi.object({ subject: Joi.string(), version: Joi.number().integer(), fingerprint: Joi.string(), created: Joi.boolean() }).label('RegistryBulkResultItem')),
  created: Joi.number().integer(), unchanged: Joi.number().integer(),
}).label('RegistryBulkResult');
export const syncCatalogResult = Joi.object({ added: Joi.number().integer(), updated: Joi.number().integer(), unchanged: Joi.number().integer() }).label('RegistrySyncCatalogResult');
export const registrySearchResult = Joi.object({ items: Joi.array().items(Joi.object({ ...entryFields, score: Joi.number() }).label('RegistrySearchHit')) }).label('RegistrySearchResult');
export const registryValidation = Joi.object({ subject: Joi.string(), version: Joi.number().integer(), valid: Joi.boolean(), errors: validationErrors }).label('RegistryValidationResult');

// The schema-library routes (read by any member of
// the tenant; the libraries are the same for every tenant).
import type { ServerRoute } from 'agent-platform/sdk';
import { member } from '../access.ts';
import * as s from './registry.schemas.ts';
import type { LibraryService } from '../services/libraries.ts';

const tags = ['api', 'schemas'];
type Params = { library_id: string; domain: string; schema_id: string; full_id: string };
const p = (params: unknown) => params as Params;

export function libraryRoutes(libraries: LibraryService): ServerRoute[] {
  const read = (path: string, description: string, validate: object, response: object, handler: ServerRoute['handler']): ServerRoute =>
    ({ method: 'GET', path, options: { auth: 'bearer', tags, description, plugins: { platform: member }, validate, response: { schema: response } }, handler });
  return [
    read('/api/v1/schema-libraries', 'The built-in schema libraries', {}, s.libraryList, () => libraries.libraries()),
    read('/api/v1/schema-libraries/{library_id}/domains', 'A library\'s domains', { params: s.libraryParams }, s.domainList,
      (request) => libraries.domains(p(request.params).library_id)),
    read('/api/v1/schema-libraries/{library_id}/domains/{domain}/schemas', 'The schemas of a library\'s domain (summaries)', { params: s.domainParams }, s.domainSchemas,
      (request) => libraries.domainSchemas(p(request.params).library_id, p(request.params).domain)),
    read('/api/v1/schema-libraries/{library_id}/schemas/{schema_id}', 'A library schema with its JSON Schema (draft-07)', { params: s.schemaParams }, s.librarySchema,
      (request) => libraries.schema(p(request.params).library_id, p(request.params).schema_id)),
    read('/api/v1/schema-libraries/schema/{full_id*}', 'A library schema by its full id (<library>/<domain>/<schema>)', { params: s.fullIdParams }, s.librarySchema,
      (request) => libraries.byFullId(p(request.params).full_id)),
    read('/api/v1/schema-libraries/search', 'Search the libraries\' schemas by words of their id, title, properties and description', { query: s.librarySearchQuery }, s.librarySearchResult,
      (request) => libraries.search(request.query as never)),
    read('/api/v1/sdm', 'The library index in one document: every library, domain and schema', {}, s.sdmIndex, () => libraries.index()),
    {
      method: 'POST', path: '/api/v1/schema-libraries/validate/{full_id*}',
      options: {
        auth: 'bearer', tags, description: 'Validate a payload against a library schema: errors with JSON-pointer paths (a 200 either way)',
        plugins: { platform: member }, validate: { params: s.fullIdParams, payload: s.validateBody }, response: { schema: s.libraryValidation },
      },
      handler: (request) => libraries.validate(p(request.params).full_id, (request.payload as { data: unknown }).data),
    },
  ];
}

// The built-in schema libraries: browse by
// library and domain, read a schema by its id or full id, search, validate a
// payload, and the whole index in one document (/sdm). Code, not rows: every
// tenant sees the same libraries.
import { notFound } from 'agent-platform/sdk';
import { ALL_SCHEMAS, LIBRARIES, type LocatedSchema, type SchemaLibrary } from '../library/index.ts';
import { validatePayload } from '../validation/validator.ts';

const propertiesOf = (schema: Record<string, unknown>) => Object.keys((schema.properties ?? {}) as object);

export const schemaSummary = (s: LocatedSchema) => ({
  full_id: s.fullId, library_id: s.library.id, domain: s.domain.id, schema_id: s.schema.id,
  title: s.schema.title, description: s.schema.description, version: s.schema.version, properties: propertiesOf(s.schema.schema),
});
const schemaView = (s: LocatedSchema) => ({ ...schemaSummary(s), schema: s.schema.schema });

function library(id: string): SchemaLibrary {
  const found = LIBRARIES.find((l) => l.id === id);
  if (!found) throw notFound(`No schema library "${id}"`, 'SCHEMA_LIBRARY_NOT_FOUND');
  return found;
}

function byFullId(fullId: string): LocatedSchema {
  const found = ALL_SCHEMAS.find((s) => s.fullId === fullId);
  if (!found) throw notFound(`No library schema "${fullId}"`, 'SCHEMA_NOT_FOUND');
  return found;
}

/** How well a schema answers a query: id and title count most, then properties, then the description. */
function relevance(s: LocatedSchema, words: string[]): number {
  const id = `${s.schema.id} ${s.schema.title}`.toLowerCase();
  const properties = propertiesOf(s.schema.schema).join(' ').toLowerCase();
  const description = `${s.schema.description} ${s.domain.name}`.toLowerCase();
  return words.reduce((score, w) => score + (id.includes(w) ? 3 : 0) + (properties.includes(w) ? 2 : 0) + (description.includes(w) ? 1 : 0), 0);
}

export function createLibraryService() {
  return {
    libraries: () => ({
      items: LIBRARIES.map((l) => ({
        id: l.id, name: l.name, description: l.description, version: l.version,
        domains: l.domains.map((d) => d.id), schema_count: l.domains.reduce((n, d) => n + d.schemas.length, 0),
      })),
    }),
    domains: (libraryId: string) => ({
      library_id: libraryId,
      items: library(libraryId).domains.map((d) => ({ id: d.id, name: d.name, description: d.description, schema_count: d.schemas.length })),
    }),
    domainSchemas: (libraryId: string, domainId: string) => {
      const domain = library(libraryId).domains.find((d) => d.id === domainId);
      if (!domain) throw notFound(`Schema library ${libraryId} has no domain "${domainId}"`, 'SCHEMA_DOMAIN_NOT_FOUND');
      return { library_id: libraryId, domain: domainId, items: ALL_SCHEMAS.filter((s) => s.library.id === libraryId && s.domain.id === domainId).map(schemaSummary) };
    },
    schema: (libraryId: string, schemaId: string) => {
      library(libraryId);
      const found = ALL_SCHEMAS.find((s) => s.library.id === libraryId && s.schema.id === schemaId);
      if (!found) throw notFound(`Schema library ${libraryId} has no schema "${schemaId}"`, 'SCHEMA_NOT_FOUND');
      return schemaView(found);
    },
    byFullId: (fullId: string) => schemaView(byFullId(fullId)),
    search: (query: { q?: string; domain?: string; library_id?: string; limit: number }) => {
      const words = (query.q ?? '').toLowerCase().split(/[^a-z0-9_]+/).filter(Boolean);
      const items = ALL_SCHEMAS
        .filter((s) => (!query.domain || s.domain.id === query.domain) && (!query.library_id || s.library.id === query.library_id))
        .map((s) => ({ s, score: words.length ? relevance(s, words) : 1 }))
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score || a.s.fullId.localeCompare(b.s.fullId))
        .slice(0, query.limit)
        .map((x) => ({ ...schemaSummary(x.s), score: x.score }));
      return { items };
    },
    validate: (fullId: string, data: unknown) => ({ full_id: fullId, ...validatePayload(byFullId(fullId).schema.schema, data) }),
    /** The whole index in one document: every library, domain and schema (with its JSON Schema). */
    index: () => ({
      schema_count: ALL_SCHEMAS.length,
      libraries: LIBRARIES.map((l) => ({
        id: l.id, name: l.name, description: l.description, version: l.version,
        domains: l.domains.map((d) => ({
          id: d.id, name: d.name, description: d.description,
          schemas: ALL_SCHEMAS.filter((s) => s.library.id === l.id && s.domain.id === d.id).map(schemaView),
        })),
      })),
    }),
  };
}

export type LibraryService = ReturnType<typeof createLibraryService>;

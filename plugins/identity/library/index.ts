// The built-in schema libraries, written here: one library, `sdm`
// (smart data models), by domain. Schemas are JSON Schema draft-07. A schema's
// full id is `<library>/<domain>/<schema>`, e.g. `sdm/urban_services/street_light`.
import { general } from './general.ts';
import type { LibraryDomain, LibrarySchema, SchemaLibrary } from './types.ts';
import { urbanServices } from './urban.ts';

export type { LibraryDomain, LibrarySchema, SchemaLibrary };

export const LIBRARIES: SchemaLibrary[] = [
  {
    id: 'sdm',
    name: 'Smart data models',
    description: 'The platform\'s built-in models for city services and the general entities they refer to',
    version: '1.0.0',
    domains: [urbanServices, general],
  },
];

export interface LocatedSchema {
  fullId: string;
  library: SchemaLibrary;
  domain: LibraryDomain;
  schema: LibrarySchema;
}

export const fullIdOf = (library: string, domain: string, schema: string) => `${library}/${domain}/${schema}`;

/** Every built-in schema with where it lives. */
export const ALL_SCHEMAS: LocatedSchema[] = LIBRARIES.flatMap((library) => library.domains.flatMap((domain) =>
  domain.schemas.map((schema) => ({ fullId: fullIdOf(library.id, domain.id, schema.id), library, domain, schema }))));

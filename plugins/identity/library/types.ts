// The shape of a built-in schema library: libraries hold domains, domains
// hold schemas (JSON Schema draft-07, the dialect of the platform's Ajv).
export type JsonSchema = Record<string, unknown>;

export interface LibrarySchema {
  /** unique in its library: [a-z0-9_] */
  id: string;
  title: string;
  description: string;
  /** the schema's own version (semver), bumped when its definition changes */
  version: string;
  schema: JsonSchema;
}

export interface LibraryDomain {
  id: string;
  name: string;
  description: string;
  schemas: LibrarySchema[];
}

export interface SchemaLibrary {
  id: string;
  name: string;
  description: string;
  version: string;
  domains: LibraryDomain[];
}

// What the ontology exposes to other plugins (register's `ontology` dependency).
// Others import only these types.
export interface OntologyApi {
  /** An entity type at a version (the current one by default), or null. */
  getEntityType(tenantId: string, code: string, version?: number): Promise<{ code: string; version: number; properties: Record<string, unknown>; keys: string[] } | null>;
}

// What this plugin exposes as `api` (what a plugin declaring it receives in register).
declare module '@hapi/hapi' {
  interface PluginProperties {
    ontology: { api: OntologyApi };
  }
}

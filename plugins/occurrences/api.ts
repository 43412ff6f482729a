// What the occurrences plugin offers other plugins (register's `occurrences` dependency):
// the reference format and the states an occurrence can be in, read-only.
// Occurrences are created by other plugins through the forms plugin's
// hydration target `occurrences.Occurrence`, not through this API.

export interface OccurrenceSummary {
  id: number;
  reference: string;
  occurrence_type: number;
  title: string;
  state: string;
  created_at: Date;
}

export interface OccurrencesApi {
  /** The model path under which the forms plugin hydrates submissions into occurrences. */
  readonly targetModel: 'occurrences.Occurrence';
  /** One occurrence of a tenant, public fields only (no reporter data); null when not found. */
  find(tenantId: string, id: number): Promise<OccurrenceSummary | null>;
}

declare module '@hapi/hapi' {
  interface PluginProperties {
    occurrences: { api: OccurrencesApi };
  }
}

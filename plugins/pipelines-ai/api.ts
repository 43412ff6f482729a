// What pipelines-ai exposes to other plugins (register's `pipelines-ai` dependency):
// the model's column → target mapping suggestions, validated here before they
// are returned. Others import only these types.

/** A source column: its name, type and a few sample values (already read under the caller's read rule). */
export interface MappingColumn { name: string; type: string; samples: unknown[] }

/** A target to map onto (a property, a field): its name and what is known of its values. */
export interface MappingTarget { name: string; type?: string; format?: string; enum?: unknown[]; description?: string; required?: boolean }

/** One suggestion: `column` is one of the given columns, `target` one of the given targets, each used once. */
export interface ModelMapping { column: string; target: string; confidence: number; reason: string }

export interface PipelinesAiApi {
  /**
   * The model's mappings of `columns` onto `targets`: checked against the given
   * names (unknown names, a column or a target used twice, a confidence
   * outside 0..1 get one repair round-trip), or null when no model is
   * configured (LLM_BASE_URL). Throws the model's errors (502
   * MODEL_UNAVAILABLE / MODEL_OUTPUT_INVALID, 504 MODEL_TIMEOUT). Sample
   * values are sent to the model, at most 5 per column, 100 characters each.
   */
  suggestMappings(tenantId: string, input: { columns: MappingColumn[]; targets: MappingTarget[] }): Promise<{ mappings: ModelMapping[] } | null>;
}

// What this plugin exposes as `api` (what a plugin declaring it receives in register).
declare module '@hapi/hapi' {
  interface PluginProperties {
    'pipelines-ai': { api: PipelinesAiApi };
  }
}

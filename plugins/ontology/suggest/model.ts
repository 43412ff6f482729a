// Model-assisted mapping suggestions: when the pipelines-ai plugin is loaded
// and a model is configured (LLM_*), its api maps the dataset's columns (with
// a few sample values) onto the type's properties. Its answer is checked again
// here against the dataset's real columns and the type's properties (pipelines-ai
// already repairs unknown names once; what still does not fit is dropped, as is
// a second use of a column or a property), so nothing unchecked reaches a
// backing dataset. The rules' answer (suggest/rules.ts) is the fallback.
import type { LakeColumn } from '../../lakehouse/api.ts';
import type { MappingTarget, PipelinesAiApi } from '../../pipelines-ai/api.ts';
import { withKeys, type SuggestedMapping } from './rules.ts';

interface PropertySchema { type?: string | string[]; format?: string; enum?: unknown[]; description?: string }

function targetsOf(type: { properties: Record<string, unknown> }): MappingTarget[] {
  const properties = (type.properties.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set((type.properties.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => {
    const types = [schema.type ?? 'string'].flat().filter((t) => t !== 'null');
    return {
      name, type: types.join('|') || 'string', required: required.has(name),
      ...(schema.format ? { format: schema.format } : {}), ...(schema.enum ? { enum: schema.enum } : {}),
      ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    };
  });
}

/** The model's suggestion, checked; null when no model is configured. Throws what the model call throws. */
export async function modelSuggestion(
  ai: PipelinesAiApi, tenantId: string,
  type: { properties: Record<string, unknown>; keys: string[] }, columns: LakeColumn[], sample: Record<string, unknown>[],
) {
  const answer = await ai.suggestMappings(tenantId, {
    columns: columns.map((column) => ({ name: column.name, type: column.type, samples: sample.map((row) => row[column.name]) })),
    targets: targetsOf(type),
  });
  if (!answer) return null;
  const columnNames = new Set(columns.map((column) => column.name));
  const propertyNames = new Set(Object.keys((type.properties.properties ?? {}) as object));
  const taken = { columns: new Set<string>(), properties: new Set<string>() };
  const mappings: SuggestedMapping[] = [];
  const ranked = [...answer.mappings].sort((x, y) => y.confidence - x.confidence);
  for (const m of ranked) {
    const fits = columnNames.has(m.column) && propertyNames.has(m.target) && !taken.columns.has(m.column) && !taken.properties.has(m.target);
    if (!fits) continue;
    taken.columns.add(m.column);
    taken.properties.add(m.target);
    const score = Math.round(Math.min(1, Math.max(0, Number(m.confidence) || 0)) * 100) / 100;
    mappings.push({ property: m.target, column: m.column, score, reasons: [m.reason || 'model'] });
  }
  return { ...withKeys(type, mappings), dropped: answer.mappings.length - mappings.length };
}

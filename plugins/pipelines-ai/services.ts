// The one factory of the AI plugin's services and of its api. The api other
// plugins use (api.ts): the model's mapping suggestions for
// columns the caller has already read (the ontology's backing datasets). The
// columns are profiled from the given samples as a dataset's are, the rules'
// answer goes to the model as a hint, and the answer is checked against the
// given names (modelMappings) before it is returned.
import type { CoreServices } from 'agent-platform/sdk';
import type { LakeColumn } from '../lakehouse/api.ts';
import type { MappingColumn, MappingTarget, PipelinesAiApi } from './api.ts';
import { createModel } from './llm/model.ts';
import type { AiOptions } from './options.ts';
import { createComposeService } from './services/compose.ts';
import { createContext, type AiContext, type AiPeers } from './services/context.ts';
import { createSqlService } from './services/sql.ts';
import { createSuggestService, modelMappings, ruleMappings } from './services/suggest.ts';
import { profileColumns } from './suggestions/profile.ts';

const SAMPLES_SENT = 5;
const SAMPLE_CHARS = 100;

/** A few distinct non-null values, shortened: enough to recognise a column, little of the data. */
function shownSamples(values: unknown[]): unknown[] {
  const shown = new Map<string, unknown>();
  for (const value of values) {
    if (value === null || value === undefined || value === '') continue;
    const text = value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : value;
    const short = typeof text === 'string' && text.length > SAMPLE_CHARS ? `${text.slice(0, SAMPLE_CHARS)}…` : text;
    shown.set(JSON.stringify(short), short);
    if (shown.size === SAMPLES_SENT) break;
  }
  return [...shown.values()];
}

/** The columns' samples as rows, so they profile like a dataset's sample. */
function rowsOf(columns: MappingColumn[]): Record<string, unknown>[] {
  const length = Math.max(0, ...columns.map((column) => column.samples.length));
  return Array.from({ length }, (_, i) => Object.fromEntries(columns.map((column) => [column.name, column.samples[i] ?? null])));
}

export function createAiApi(context: AiContext): PipelinesAiApi {
  return {
    async suggestMappings(_tenantId, input: { columns: MappingColumn[]; targets: MappingTarget[] }) {
      const { model } = context;
      if (!model) return null;
      const profiles = profileColumns(input.columns.map((column) => ({ name: column.name, type: column.type }) as LakeColumn), rowsOf(input.columns));
      const samples = new Map(input.columns.map((column) => [column.name, shownSamples(column.samples)]));
      const sourceColumns = profiles.map((profile) => ({ ...profile, samples: samples.get(profile.name) }));
      // The rules read a format as the type it implies (email, date-time…).
      const rules = ruleMappings(input.targets.map((target) => ({ name: target.name, type: target.format ?? target.type })), profiles);
      const mappings = await modelMappings(model, { source_columns: sourceColumns, targets: input.targets }, rules);
      return { mappings: mappings.map((m) => ({ column: m.source, target: m.target, confidence: m.confidence, reason: m.reasons.join('; ') })) };
    },
  };
}

export function createServices(core: CoreServices, options: AiOptions, peers: AiPeers) {
  const context = createContext(core, options, createModel(core, options), peers);
  return {
    compose: createComposeService(context),
    suggest: createSuggestService(context),
    sql: createSqlService(context),
    api: createAiApi(context),
  };
}

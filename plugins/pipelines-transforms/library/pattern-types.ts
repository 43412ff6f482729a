// What a transform pattern is: a JSON Schema of parameters and a compiler to
// tenant SQL (identifiers quoted, values as $N parameters).
import { badRequest } from 'agent-platform/sdk';

export interface PatternColumns {
  /** The columns (name, lake type) of a dataset the tenant may read. */
  of(datasetId: string): Promise<{ name: string; type: string }[]>;
}

export interface CompiledPattern {
  sql: string;
  parameters: Record<string, unknown>;
  materialization?: 'table' | 'incremental';
  unique_key?: string[];
}

export interface TransformPattern {
  id: string;
  name: string;
  description: string;
  category: string;
  parameters_schema: Record<string, unknown>;
  compile(params: Record<string, any>, columns: PatternColumns): Promise<CompiledPattern>;
}

/** Checks that the named columns are columns of the dataset (400 PATTERN_COLUMN_UNKNOWN). */
export async function requireColumns(columns: PatternColumns, datasetId: string, names: string[]): Promise<{ name: string; type: string }[]> {
  const available = await columns.of(datasetId);
  const known = new Set(available.map((c) => c.name));
  for (const name of names) {
    if (!known.has(name)) throw badRequest(`Column "${name}" is not a column of ${datasetId}`, 'PATTERN_COLUMN_UNKNOWN');
  }
  return available;
}

export const datasetParam = { type: 'string', pattern: '^[A-Za-z0-9_]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_]+$', description: 'A dataset id the tenant may read' };
export const columnParam = { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]{0,62}$' };
export const columnList = { type: 'array', items: columnParam, minItems: 1, maxItems: 32, uniqueItems: true };

// The SQL transform library: built-in column recipes
// by category and SQL type; apply instantiates one into a tenant transform
// (the same analysis as any transform); sync reloads the built-ins
// idempotently (by checksum).
import { createHash } from 'node:crypto';
import { badRequest, notFound } from 'agent-platform/sdk';
import type { TransformsContext } from './context.ts';
import { datasetRef, ident } from '../library/sql.ts';
import { SQL_LIBRARY } from '../library/sql-transforms.ts';
import type { TransformService } from './transforms.ts';
import { catalogStore } from '../store/catalog.ts';

export interface ApplyInput {
  name: string;
  input_dataset: string;
  column: string;
  output_column?: string;
  parameters?: Record<string, unknown>;
  output_dataset?: string;
  materialization?: 'table' | 'incremental';
  unique_key?: string[];
}

const checksum = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

export function createLibraryService(context: TransformsContext, transforms: TransformService) {
  const { core, lake } = context;

  async function entry(id: string) {
    const found = await catalogStore.libraryEntry(core, id);
    if (!found) throw notFound(`SQL transform ${id} does not exist`, 'SQL_TRANSFORM_NOT_FOUND');
    return found;
  }

  return {
    sync: () => catalogStore.syncLibrary(core, SQL_LIBRARY.map((e) => ({ ...e, parameters: JSON.stringify(e.parameters), checksum: checksum(e) }))),
    list: async (category?: string) => ({ items: await catalogStore.library(core, { category }) }),
    forType: async (sqlType: string) => ({ sql_type: sqlType, items: await catalogStore.library(core, { sqlType }) }),
    categories: async () => ({ items: await catalogStore.libraryCategories(core) }),
    get: entry,

    /** Instantiates the entry over one column of a readable dataset into a tenant transform. */
    async apply(tenantId: string, id: string, input: ApplyInput, createdBy: string | null) {
      const found = await entry(id);
      const dataset = await lake().readable(tenantId, input.input_dataset);
      const column = dataset.columns.find((c) => c.name === input.column);
      if (!column) throw badRequest(`Column "${input.column}" is not a column of ${input.input_dataset}`, 'SQL_TRANSFORM_COLUMN_UNKNOWN');
      if (!found.sql_types.includes(column.type)) {
        throw badRequest(`${id} applies to ${found.sql_types.join(', ')} columns; "${input.column}" is ${column.type}`, 'SQL_TRANSFORM_TYPE_MISMATCH');
      }
      const parameters: Record<string, unknown> = {};
      for (const [name, declaration] of Object.entries(found.parameters)) {
        parameters[name] = input.parameters && Object.hasOwn(input.parameters, name) ? { ...(declaration as object), default: input.parameters[name] } : declaration;
      }
      for (const name of Object.keys(input.parameters ?? {})) {
        if (!Object.hasOwn(found.parameters, name)) throw badRequest(`${id} has no parameter "${name}"`, 'SQL_PARAMETER_UNKNOWN');
      }
      const sql = found.sql.replaceAll('{{input}}', datasetRef(dataset.id)).replaceAll('{{column}}', ident(input.column))
        .replaceAll('{{output_column}}', ident(input.output_column ?? `${input.column}_${id}`.slice(0, 63)));
      return transforms.createOne(tenantId, {
        name: input.name, description: found.description, sql, parameters, output_dataset: input.output_dataset,
        materialization: input.materialization ?? 'table', unique_key: input.unique_key,
      }, createdBy, { kind: 'sql_library', id });
    },
  };
}

export type LibraryService = ReturnType<typeof createLibraryService>;

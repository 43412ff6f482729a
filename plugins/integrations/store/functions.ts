// kysely queries for integration_functions (tenant-owned). Listing joins the
// spec for its name (the `source` of a function).
import { sql } from 'kysely';
import type { KeysetPage, TenantTransaction } from 'agent-platform/sdk';
import type { DerivedFunction } from '../openapi/model.ts';
import type { ExistingFunction } from '../changes/plan.ts';
import './tables.ts';

const INSERT_BATCH = 250;

const viewColumns = [
  'f.id', 'f.name', 'f.spec_id', 's.name as source', 'f.operation_key', 'f.operation_id', 'f.method', 'f.path', 'f.summary',
  'f.description', 'f.description_edited', 'f.parameters', 'f.json_schema', 'f.request', 'f.security', 'f.status', 'f.warnings',
  'f.version', 'f.created_at', 'f.updated_at', 'f.removed_at', 's.auth',
] as const;
const valueSet = sql<boolean>`(s.auth_value_sealed IS NOT NULL)`.as('auth_value_set');

export type FunctionRow = NonNullable<Awaited<ReturnType<typeof functionsStore.get>>>;

export interface FunctionFilter {
  source?: string;
  status?: 'active' | 'removed';
}

function rowValues(fn: DerivedFunction) {
  return {
    name: fn.name,
    operation_key: fn.operation_key,
    operation_id: fn.operation_id,
    method: fn.method,
    path: fn.path,
    summary: fn.summary,
    parameters: JSON.stringify(fn.parameters),
    json_schema: JSON.stringify(fn.json_schema),
    request: JSON.stringify(fn.request),
    security: fn.security === null ? null : JSON.stringify(fn.security),
    warnings: JSON.stringify(fn.warnings),
  };
}

function joined(trx: TenantTransaction, filter: FunctionFilter = {}) {
  let query = trx.selectFrom('integration_functions as f').innerJoin('integration_specs as s', 's.id', 'f.spec_id');
  if (filter.source !== undefined) query = query.where('s.name', '=', filter.source);
  if (filter.status !== undefined) query = query.where('f.status', '=', filter.status);
  return query;
}

export const functionsStore = {
  /** What a re-import or sync compares against. */
  ofSpec: (trx: TenantTransaction, specId: string): Promise<ExistingFunction[]> =>
    trx.selectFrom('integration_functions')
      .select(['name', 'operation_key', 'operation_id', 'method', 'path', 'summary', 'description', 'description_edited', 'parameters', 'request', 'security', 'status', 'version'])
      .where('spec_id', '=', specId)
      .execute(),

  async insertMany(trx: TenantTransaction, tenantId: string, specId: string, functions: DerivedFunction[]): Promise<void> {
    for (let i = 0; i < functions.length; i += INSERT_BATCH) {
      const rows = functions.slice(i, i + INSERT_BATCH).map((fn) => ({
        tenant_id: tenantId, spec_id: specId, ...rowValues(fn), description: fn.description,
      }));
      await trx.insertInto('integration_functions').values(rows).execute();
    }
  },

  /** Rewrites a function from its operation; an edited description is kept. */
  update: (trx: TenantTransaction, specId: string, fn: DerivedFunction) =>
    trx.updateTable('integration_functions')
      .set({
        ...rowValues(fn),
        description: sql`CASE WHEN description_edited THEN description ELSE ${fn.description} END`,
        status: 'active',
        removed_at: null,
        version: sql`version + 1`,
        updated_at: sql`now()`,
      })
      .where('spec_id', '=', specId)
      .where('operation_key', '=', fn.operation_key)
      .returning(['name', 'version'])
      .executeTakeFirstOrThrow(),

  /** A new version without other changes (the spec's auth changed). */
  bump: (trx: TenantTransaction, specId: string, keys: string[]) =>
    keys.length === 0
      ? Promise.resolve([])
      : trx.updateTable('integration_functions')
        .set({ version: sql`version + 1`, updated_at: sql`now()` })
        .where('spec_id', '=', specId)
        .where('operation_key', 'in', keys)
        .returning(['name', 'version'])
        .execute(),

  markRemoved: (trx: TenantTransaction, specId: string, keys: string[]) =>
    keys.length === 0
      ? Promise.resolve([])
      : trx.updateTable('integration_functions')
        .set({ status: 'removed', removed_at: sql`now()`, version: sql`version + 1`, updated_at: sql`now()` })
        .where('spec_id', '=', specId)
        .where('operation_key', 'in', keys)
        .returning(['name', 'version'])
        .execute(),

  /** Names among `names` that functions of other specs hold. */
  takenElsewhere: async (trx: TenantTransaction, names: string[], specId: string | undefined) => {
    if (names.length === 0) return [];
    let query = trx.selectFrom('integration_functions as f').innerJoin('integration_specs as s', 's.id', 'f.spec_id')
      .select(['f.name', 's.name as source']).where('f.name', 'in', names);
    if (specId) query = query.where('f.spec_id', '!=', specId);
    return query.execute();
  },

  list: async (trx: TenantTransaction, filter: FunctionFilter, skip: number, limit: number) => {
    const [items, total] = await Promise.all([
      joined(trx, filter).select([...viewColumns, valueSet]).orderBy('f.name').offset(skip).limit(limit).execute(),
      joined(trx, filter).select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  },

  /** A keyset page by name (GraphQL; KeysetPage: backward reads before the cursor, nearest first). */
  page: (trx: TenantTransaction, filter: FunctionFilter, page: KeysetPage<string>) => {
    let query = joined(trx, filter).select([...viewColumns, valueSet]);
    const forward = page.direction === 'forward';
    if (page.cursor !== undefined) query = query.where('f.name', forward ? '>' : '<', page.cursor);
    return query.orderBy('f.name', forward ? 'asc' : 'desc').limit(page.limit).execute();
  },

  count: async (trx: TenantTransaction, filter: FunctionFilter) =>
    Number((await joined(trx, filter).select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),

  get: (trx: TenantTransaction, name: string) =>
    joined(trx).select([...viewColumns, valueSet]).where('f.name', '=', name).executeTakeFirst(),

  /** What the registry lists: functions with their argument schemas (the same filter as `list`). */
  described: (trx: TenantTransaction, filter: FunctionFilter) =>
    joined(trx, filter).select(['f.name', 'f.description', 'f.json_schema', 's.name as source', 'f.status']).orderBy('f.name').execute(),

  editDescription: (trx: TenantTransaction, name: string, description: string) =>
    trx.updateTable('integration_functions')
      .set({ description, description_edited: true, version: sql`version + 1`, updated_at: sql`now()` })
      .where('name', '=', name)
      .returning(['name', 'version', 'spec_id'])
      .executeTakeFirst(),

  namesOfSpec: (trx: TenantTransaction, specId: string) =>
    trx.selectFrom('integration_functions').select(['name', 'version', 'status']).where('spec_id', '=', specId).execute(),
};

// SQL of the transforms table: tenant transactions only.
import { type KeysetPage, sql, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

export interface TransformValues {
  name: string;
  description: string;
  sql: string;
  parameters: Record<string, unknown>;
  output_dataset: string;
  materialization: 'table' | 'incremental';
  unique_key: string[];
  status: 'active' | 'archived';
  inputs: string[];
  columns: { name: string; type: string }[];
  analysis_errors: { code: string; message: string }[];
  origin: Record<string, unknown> | null;
}

const encode = (values: Partial<TransformValues>) => ({
  ...values,
  ...(values.parameters !== undefined ? { parameters: JSON.stringify(values.parameters) } : {}),
  ...(values.columns !== undefined ? { columns: JSON.stringify(values.columns) } : {}),
  ...(values.analysis_errors !== undefined ? { analysis_errors: JSON.stringify(values.analysis_errors) } : {}),
  ...(values.origin !== undefined ? { origin: JSON.stringify(values.origin) } : {}),
});

export const transformsStore = {
  insert: (trx: TenantTransaction, tenantId: string, values: TransformValues, createdBy: string | null) =>
    trx.insertInto('transforms').values({ ...encode(values), tenant_id: tenantId, created_by: createdBy, hydrated_at: new Date() } as never)
      .returningAll().executeTakeFirstOrThrow(),

  update: (trx: TenantTransaction, id: string, values: Partial<TransformValues> & { hydrated_at?: Date }) =>
    trx.updateTable('transforms').set({ ...encode(values), updated_at: sql`now()` } as never).where('id', '=', id)
      .returningAll().executeTakeFirstOrThrow(),

  find: (trx: TenantTransaction, id: string, lock = false) => {
    const query = trx.selectFrom('transforms').selectAll().where('id', '=', id);
    return (lock ? query.forUpdate() : query).executeTakeFirst();
  },

  findByName: (trx: TenantTransaction, name: string) => trx.selectFrom('transforms').selectAll().where('name', '=', name).executeTakeFirst(),

  list: (trx: TenantTransaction, filter: { status?: string; limit: number; offset: number }) => {
    let query = trx.selectFrom('transforms').selectAll();
    if (filter.status) query = query.where('status', '=', filter.status as never);
    return query.orderBy('created_at', 'desc').orderBy('id').limit(filter.limit).offset(filter.offset).execute();
  },

  count: async (trx: TenantTransaction, filter: { status?: string }) => {
    let query = trx.selectFrom('transforms').select(sql<number>`count(*)::int`.as('n'));
    if (filter.status) query = query.where('status', '=', filter.status as never);
    return (await query.executeTakeFirstOrThrow()).n;
  },

  /** Keyset page by id (GraphQL). */
  after: (trx: TenantTransaction, afterId: string | undefined, limit: number) => {
    let query = trx.selectFrom('transforms').selectAll();
    if (afterId !== undefined) query = query.where('id', '>', afterId);
    return query.orderBy('id').limit(limit).execute();
  },

  /** A keyset page by id (GraphQL): forward, the ids after the cursor; backward, those before it, nearest first. */
  page: (trx: TenantTransaction, page: KeysetPage<string>) => {
    const forward = page.direction === 'forward';
    let query = trx.selectFrom('transforms').selectAll();
    if (page.cursor !== undefined) query = query.where('id', forward ? '>' : '<', page.cursor);
    return query.orderBy('id', forward ? 'asc' : 'desc').limit(page.limit).execute();
  },

  /** The transforms of these ids (those that exist). */
  findMany: (trx: TenantTransaction, ids: string[]) =>
    ids.length === 0 ? Promise.resolve([]) : trx.selectFrom('transforms').selectAll().where('id', 'in', ids).execute(),

  /** The names of transforms, by id. */
  names: async (trx: TenantTransaction, ids: string[]) => new Map(ids.length === 0 ? [] : (
    await trx.selectFrom('transforms').select(['id', 'name']).where('id', 'in', ids).execute()).map((row) => [row.id, row.name] as const)),

  delete: (trx: TenantTransaction, id: string) => trx.deleteFrom('transforms').where('id', '=', id).execute(),
};

export type TransformRow = NonNullable<Awaited<ReturnType<typeof transformsStore.find>>>;

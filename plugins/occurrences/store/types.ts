// SQL of occurrence types; always in a tenant transaction.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import type { DuplicatePolicy } from './tables.ts';
import './tables.ts';

export interface TypeValues {
  name: string;
  code: string;
  form_schema: Record<string, unknown>;
  duplicate_policy: DuplicatePolicy;
  duplicate_radius_m: number;
  duplicate_window_days: number;
  active: boolean;
}

const COLUMNS = ['id', 'name', 'code', 'form_schema', 'duplicate_policy', 'duplicate_radius_m', 'duplicate_window_days', 'active', 'created_at', 'updated_at'] as const;

export const typesStore = {
  insert: (trx: TenantTransaction, tenantId: string, values: TypeValues) =>
    trx.insertInto('occurrence_types').values({ tenant_id: tenantId, ...values, form_schema: JSON.stringify(values.form_schema) })
      .returning(COLUMNS).executeTakeFirstOrThrow(),

  update: (trx: TenantTransaction, id: number, values: TypeValues) =>
    trx.updateTable('occurrence_types').set({ ...values, form_schema: JSON.stringify(values.form_schema), updated_at: sql<Date>`now()` as never })
      .where('id', '=', id).returning(COLUMNS).executeTakeFirst(),

  find: (trx: TenantTransaction, id: number) => trx.selectFrom('occurrence_types').select(COLUMNS).where('id', '=', id).executeTakeFirst(),

  /** The types of these ids (those that exist). */
  findMany: (trx: TenantTransaction, ids: readonly number[]) =>
    (ids.length === 0 ? Promise.resolve([]) : trx.selectFrom('occurrence_types').select(COLUMNS).where('id', 'in', [...ids]).execute()),

  findByCode: (trx: TenantTransaction, code: string) => trx.selectFrom('occurrence_types').select(COLUMNS).where('code', '=', code).executeTakeFirst(),

  codeTaken: async (trx: TenantTransaction, code: string, exceptId?: number) => {
    let query = trx.selectFrom('occurrence_types').select('id').where('code', '=', code);
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    return Boolean(await query.executeTakeFirst());
  },

  list: (trx: TenantTransaction, activeOnly: boolean) => {
    let query = trx.selectFrom('occurrence_types').select(COLUMNS);
    if (activeOnly) query = query.where('active', '=', true);
    return query.orderBy('name').orderBy('id').limit(1000).execute();
  },

  anyActive: async (trx: TenantTransaction) =>
    Boolean(await trx.selectFrom('occurrence_types').select('id').where('active', '=', true).limit(1).executeTakeFirst()),

  inUse: async (trx: TenantTransaction, id: number) =>
    Boolean(await trx.selectFrom('occurrences').select('id').where('type_id', '=', id).limit(1).executeTakeFirst()),

  remove: (trx: TenantTransaction, id: number) => trx.deleteFrom('occurrence_types').where('id', '=', id).executeTakeFirst(),
};

export type TypeRow = NonNullable<Awaited<ReturnType<typeof typesStore.find>>>;

// kysely queries for a tenant's custom event types.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import type { CustomTypeRow } from './tables.ts';

type Trx = TenantTransaction;
const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
const columns = ['type', 'description', 'sample_payload', 'schema', 'created_at', 'updated_at'] as const;

export interface CustomTypeValues {
  description: string;
  sample_payload: Record<string, unknown> | null;
  schema: Record<string, unknown> | null;
}

export const customTypesStore = {
  insert: (trx: Trx, tenantId: string, type: string, v: CustomTypeValues) =>
    trx.insertInto('event_types_custom')
      .values({ tenant_id: tenantId, type, description: v.description, sample_payload: json(v.sample_payload), schema: json(v.schema) })
      .returning([...columns]).executeTakeFirstOrThrow(),

  update: (trx: Trx, type: string, v: CustomTypeValues) =>
    trx.updateTable('event_types_custom')
      .set({ description: v.description, sample_payload: json(v.sample_payload), schema: json(v.schema), updated_at: sql`now()` })
      .where('type', '=', type).returning([...columns]).executeTakeFirst(),

  get: (trx: Trx, type: string) => trx.selectFrom('event_types_custom').select([...columns]).where('type', '=', type).executeTakeFirst(),

  all: (trx: Trx): Promise<Pick<CustomTypeRow, (typeof columns)[number]>[]> =>
    trx.selectFrom('event_types_custom').select([...columns]).orderBy('type').execute(),

  async list(trx: Trx, skip: number, limit: number) {
    const [items, count] = await Promise.all([
      trx.selectFrom('event_types_custom').select([...columns]).orderBy('type').offset(skip).limit(limit).execute(),
      trx.selectFrom('event_types_custom').select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  },

  delete: async (trx: Trx, type: string): Promise<boolean> =>
    (await trx.deleteFrom('event_types_custom').where('type', '=', type).executeTakeFirst()).numDeletedRows > 0n,
};

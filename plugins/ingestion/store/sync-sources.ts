// kysely queries for document sync sources.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

type Trx = TenantTransaction;

const columns = [
  'id', 'name', 'kind', 'collection_id', 'directory', 'pattern', 'recursive', 'urls', 'schedule', 'timezone', 'active',
  'last_sync_started_at', 'last_sync_at', 'last_sync_status', 'last_sync_stats', 'last_sync_errors', 'created_at', 'updated_at',
] as const;

export type SyncSourceRow = NonNullable<Awaited<ReturnType<typeof syncSourcesStore.get>>>;

export interface NewSyncSource {
  tenant_id: string;
  name: string;
  kind: 'directory' | 'urls';
  collection_id: number;
  directory: string | null;
  pattern: string | null;
  recursive: boolean;
  urls: string[] | null;
  schedule: string | null;
  timezone: string;
  active: boolean;
}

export const syncSourcesStore = {
  insert: (trx: Trx, values: NewSyncSource) =>
    trx.insertInto('ingestion_sync_sources')
      .values({ ...values, urls: values.urls ? JSON.stringify(values.urls) : null })
      .returning([...columns]).executeTakeFirstOrThrow(),

  get: (trx: Trx, id: number) => trx.selectFrom('ingestion_sync_sources').select([...columns]).where('id', '=', id).executeTakeFirst(),

  list: async (trx: Trx, skip: number, limit: number) => {
    const [items, count] = await Promise.all([
      trx.selectFrom('ingestion_sync_sources').select([...columns]).orderBy('id').offset(skip).limit(limit).execute(),
      trx.selectFrom('ingestion_sync_sources').select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  },

  update: (trx: Trx, id: number, values: Partial<Omit<NewSyncSource, 'tenant_id' | 'kind'>>) =>
    trx.updateTable('ingestion_sync_sources')
      .set({
        ...values,
        urls: values.urls === undefined ? undefined : values.urls ? JSON.stringify(values.urls) : null,
        updated_at: sql`now()`,
      } as never)
      .where('id', '=', id).returning([...columns]).executeTakeFirst(),

  delete: async (trx: Trx, id: number) =>
    (await trx.deleteFrom('ingestion_sync_sources').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n,

  /** Marks a sync as running; false when one is already running (and started less than an hour ago). */
  begin: async (trx: Trx, id: number) => {
    const result = await trx.updateTable('ingestion_sync_sources')
      .set({ last_sync_status: 'running', last_sync_started_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', id)
      .where((eb) => eb.or([
        eb('last_sync_status', 'is', null),
        eb('last_sync_status', '<>', 'running'),
        eb('last_sync_started_at', '<', sql<Date>`now() - interval '1 hour'`),
      ]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  finish: (trx: Trx, id: number, status: 'succeeded' | 'partial' | 'failed', stats: Record<string, number>, errors: { item: string; error: string }[]) =>
    trx.updateTable('ingestion_sync_sources')
      .set({
        last_sync_status: status, last_sync_at: sql`now()`, last_sync_stats: JSON.stringify(stats),
        last_sync_errors: JSON.stringify(errors.slice(0, 100)), updated_at: sql`now()`,
      })
      .where('id', '=', id).execute(),
};

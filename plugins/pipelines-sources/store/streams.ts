// SQL of streams (pipeline_streams), in tenant transactions.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import type { StreamState, StreamWriteMode, SyncMode } from './tables.ts';
import './tables.ts';

const columns = [
  'id', 'source_id', 'name', 'namespace', 'schema', 'supported_sync_modes', 'sync_mode', 'write_mode', 'cursor_field',
  'primary_key', 'enabled', 'destination', 'state', 'created_at', 'updated_at',
] as const;

/** What a stream is configured with (everything but its identity and runtime state). */
export interface StreamSettings {
  schema: Record<string, unknown>;
  supported_sync_modes: SyncMode[];
  sync_mode: SyncMode;
  write_mode: StreamWriteMode;
  cursor_field: string | null;
  primary_key: string[];
  enabled: boolean;
  destination: string;
}

const encode = (settings: Partial<StreamSettings>) => ({
  ...settings,
  ...(settings.schema !== undefined ? { schema: JSON.stringify(settings.schema) } : {}),
});

export const streamsStore = {
  insert: (trx: TenantTransaction, row: StreamSettings & { tenant_id: string; source_id: string; name: string; namespace: string | null }) =>
    trx.insertInto('pipeline_streams').values(encode(row) as never).returning(columns).executeTakeFirstOrThrow(),

  list: (trx: TenantTransaction, sourceId: string) =>
    trx.selectFrom('pipeline_streams').select(columns).where('source_id', '=', sourceId)
      .orderBy(sql`coalesce(namespace, '')`).orderBy('name').execute(),

  /** The stream of the tenant (any source) landing in a dataset (destinations are unique per tenant). */
  findByDestination: (trx: TenantTransaction, destination: string) =>
    trx.selectFrom('pipeline_streams').select(columns).where('destination', '=', destination).executeTakeFirst(),

  /** The streams of these ids, of any source (those that exist). */
  findMany: (trx: TenantTransaction, ids: string[]) =>
    ids.length === 0 ? Promise.resolve([]) : trx.selectFrom('pipeline_streams').select(columns).where('id', 'in', ids).execute(),

  find: (trx: TenantTransaction, sourceId: string, id: string) =>
    trx.selectFrom('pipeline_streams').select(columns).where('source_id', '=', sourceId).where('id', '=', id).executeTakeFirst(),

  update: (trx: TenantTransaction, id: string, settings: Partial<StreamSettings>) =>
    trx.updateTable('pipeline_streams').set({ ...encode(settings), updated_at: sql`now()` } as never).where('id', '=', id).returning(columns).executeTakeFirstOrThrow(),

  setState: (trx: TenantTransaction, id: string, state: StreamState) =>
    trx.updateTable('pipeline_streams').set({ state: JSON.stringify(state) }).where('id', '=', id).execute(),

  delete: (trx: TenantTransaction, sourceId: string, ids: string[]) =>
    ids.length === 0 ? Promise.resolve([]) : trx.deleteFrom('pipeline_streams').where('source_id', '=', sourceId).where('id', 'in', ids).execute(),
};

export type StreamRow = Awaited<ReturnType<typeof streamsStore.list>>[number];

// SQL of message templates; always in a tenant transaction.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import type { Channel } from './tables.ts';
import './tables.ts';

export interface TemplateValues {
  name: string;
  channel: Channel;
  subject: string;
  body: string;
  type_ids: number[];
  states: string[];
  /** Applied by itself when an occurrence of its types enters one of its states. */
  send_on_enter: boolean;
}

const COLUMNS = ['id', 'name', 'channel', 'subject', 'body', 'type_ids', 'states', 'send_on_enter', 'created_at', 'updated_at'] as const;

/** bigint[] comes back as text; ids fit in a JS number. */
function norm<T extends { type_ids: unknown[] }>(row: T): T {
  return { ...row, type_ids: row.type_ids.map(Number) };
}
const normMaybe = <T extends { type_ids: unknown[] }>(row: T | undefined) => (row ? norm(row) : undefined);

export const templatesStore = {
  insert: (trx: TenantTransaction, tenantId: string, values: TemplateValues) =>
    trx.insertInto('occurrence_templates').values({ tenant_id: tenantId, ...values }).returning(COLUMNS).executeTakeFirstOrThrow().then(norm),

  update: (trx: TenantTransaction, id: number, values: TemplateValues) =>
    trx.updateTable('occurrence_templates').set({ ...values, updated_at: sql<Date>`now()` as never }).where('id', '=', id)
      .returning(COLUMNS).executeTakeFirst().then(normMaybe),

  find: (trx: TenantTransaction, id: number) => trx.selectFrom('occurrence_templates').select(COLUMNS).where('id', '=', id).executeTakeFirst().then(normMaybe),

  list: (trx: TenantTransaction) => trx.selectFrom('occurrence_templates').select(COLUMNS).orderBy('name').orderBy('id').limit(1000).execute().then((rows) => rows.map(norm)),

  /** Templates for an occurrence of this type in this state (empty lists apply to all). */
  applicable: (trx: TenantTransaction, typeId: number, state: string) => trx.selectFrom('occurrence_templates').select(COLUMNS)
    .where(sql<boolean>`(cardinality(type_ids) = 0 OR ${typeId}::bigint = ANY(type_ids))`)
    .where(sql<boolean>`(cardinality(states) = 0 OR ${state}::text = ANY(states))`)
    .orderBy('name').orderBy('id').limit(1000).execute().then((rows) => rows.map(norm)),

  /** The send_on_enter templates for an occurrence of this type that has just entered this state, in name order. */
  onEnter: (trx: TenantTransaction, typeId: number, state: string) => trx.selectFrom('occurrence_templates').select(COLUMNS)
    .where('send_on_enter', '=', true)
    .where(sql<boolean>`(cardinality(type_ids) = 0 OR ${typeId}::bigint = ANY(type_ids))`)
    .where(sql<boolean>`(cardinality(states) = 0 OR ${state}::text = ANY(states))`)
    .orderBy('name').orderBy('id').limit(1000).execute().then((rows) => rows.map(norm)),

  remove: (trx: TenantTransaction, id: number) => trx.deleteFrom('occurrence_templates').where('id', '=', id).executeTakeFirst(),
};

export type TemplateRow = NonNullable<Awaited<ReturnType<typeof templatesStore.find>>>;

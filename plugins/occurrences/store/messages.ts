// SQL of the messages recorded on occurrences' timelines; always in a tenant transaction.
import type { TenantTransaction } from 'agent-platform/sdk';
import type { Channel } from './tables.ts';
import './tables.ts';

const COLUMNS = ['id', 'template_id', 'channel', 'subject', 'body', 'created_by', 'created_at'] as const;

export const messagesStore = {
  insert: (trx: TenantTransaction, tenantId: string, values: { occurrence_id: number; template_id: number | null; channel: Channel; subject: string; body: string; created_by: string | null; created_at: Date }) =>
    trx.insertInto('occurrence_messages').values({ tenant_id: tenantId, ...values }).returning(COLUMNS).executeTakeFirstOrThrow(),

  ofOccurrence: (trx: TenantTransaction, occurrenceId: number) =>
    trx.selectFrom('occurrence_messages').select(COLUMNS).where('occurrence_id', '=', occurrenceId).orderBy('id').limit(1000).execute(),
};

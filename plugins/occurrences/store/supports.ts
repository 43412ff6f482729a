// SQL of citizens' support of a report; always in a tenant transaction.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

export const supportsStore = {
  /**
   * Records that a client supports an occurrence: true when it counts (the
   * client's first support, or its last one counted before `since`), false
   * for a repeat within the window. One statement: concurrent repeats count once.
   */
  async record(trx: TenantTransaction, tenantId: string, occurrenceId: number, clientHash: string, now: Date, since: Date): Promise<boolean> {
    const counted = await trx.insertInto('occurrence_supports')
      .values({ tenant_id: tenantId, occurrence_id: occurrenceId, client_hash: clientHash, counted_at: now })
      .onConflict((oc) => oc.columns(['tenant_id', 'occurrence_id', 'client_hash'])
        .doUpdateSet({ counted_at: now })
        .where('occurrence_supports.counted_at', '<', since))
      .returning('occurrence_id').executeTakeFirst();
    return counted !== undefined;
  },

  increment: async (trx: TenantTransaction, occurrenceId: number) =>
    (await trx.updateTable('occurrences').set({ support_count: sql<number>`support_count + 1` })
      .where('id', '=', occurrenceId).returning('support_count').executeTakeFirstOrThrow()).support_count,
};

// The open SSE streams of a tenant (chat_open_streams), counted across
// processes: streams are admitted under the tenant's transaction-scoped
// advisory lock, in a statement after it, so the count sees every admission
// that held the lock before. Streams of a runner without a fresh heartbeat
// (a dead process) do not count; the admitting runner's own always do.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

export const streamsStore = {
  /** Waits for the tenant's other admissions (any process) until this transaction ends. */
  lock: (trx: TenantTransaction, tenantId: string) =>
    sql`SELECT pg_advisory_xact_lock(hashtextextended(${`chat.streams:${tenantId}`}, 0))`.execute(trx),

  /**
   * Writes the streams (in the order given) while fewer than `limit` live
   * ones are open: the ids written; the others are past the tenant's limit.
   */
  admit: async (trx: TenantTransaction, values: { ids: string[]; tenantId: string; runnerId: string; limit: number; staleSeconds: number }) =>
    new Set((await sql<{ id: string }>`
      WITH open AS (
        SELECT count(*) AS n FROM chat_open_streams s
        WHERE s.tenant_id = ${values.tenantId}
          AND (s.runner_id = ${values.runnerId}::uuid OR EXISTS (
            SELECT 1 FROM chat_runners r
            WHERE r.id = s.runner_id AND r.heartbeat_at > now() - make_interval(secs => ${values.staleSeconds}))))
      INSERT INTO chat_open_streams (id, tenant_id, runner_id)
      SELECT asked.id, ${values.tenantId}, ${values.runnerId}::uuid
      FROM unnest(${values.ids}::uuid[]) WITH ORDINALITY AS asked (id, position), open
      WHERE asked.position <= ${values.limit} - open.n
      RETURNING id`.execute(trx)).rows.map((row) => row.id)),

  close: (trx: TenantTransaction, id: string) => trx.deleteFrom('chat_open_streams').where('id', '=', id).execute(),

  /** Rows of runners that are gone or silent (the sweep, in each tenant). */
  pruneDead: async (trx: TenantTransaction, staleSeconds: number) =>
    Number((await sql`
      DELETE FROM chat_open_streams s
      WHERE NOT EXISTS (SELECT 1 FROM chat_runners r
                        WHERE r.id = s.runner_id AND r.heartbeat_at > now() - make_interval(secs => ${staleSeconds}))`.execute(trx)).numAffectedRows ?? 0),
};

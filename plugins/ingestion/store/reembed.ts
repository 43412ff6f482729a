// Current chunks as a model change sees them: those not embedded by the model
// in use (embedded by another, or never embedded) are re-embedded in the
// background (pipeline/reembed.ts), and counted for `platform models status`.
// Older revisions' chunks are not searched and are left as they are.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

type Trx = TenantTransaction;

export const reembedStore = {
  /** Up to `limit` current chunks not embedded by `model`. */
  stale: (trx: Trx, model: string, limit: number) =>
    trx.selectFrom('ingestion_chunks').select(['id', 'text']).where('is_current', '=', true)
      .where(sql<boolean>`embedding_model IS DISTINCT FROM ${model}`).orderBy('id').limit(limit).execute(),

  /** Current chunks embedded by `model`, and those that are not (yet). */
  counts: async (trx: Trx, model: string) => {
    const row = await trx.selectFrom('ingestion_chunks').where('is_current', '=', true)
      .select([
        sql<string>`count(*) FILTER (WHERE embedding_model = ${model})`.as('embedded'),
        sql<string>`count(*) FILTER (WHERE embedding_model IS DISTINCT FROM ${model})`.as('remaining'),
      ]).executeTakeFirstOrThrow();
    return { embedded: Number(row.embedded), remaining: Number(row.remaining) };
  },
};

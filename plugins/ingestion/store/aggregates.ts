// Aggregate status queries over a set of documents (a collection tree or a
// sync source): counts per status, completions in a window, top errors.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

type Trx = TenantTransaction;

export interface Scope {
  collectionIds?: number[];
  sourceId?: number;
}

function scoped(trx: Trx, scope: Scope) {
  let query = trx.selectFrom('ingestion_documents').where('deleted_at', 'is', null);
  if (scope.collectionIds) query = query.where('collection_id', 'in', scope.collectionIds.length ? scope.collectionIds : [-1]);
  if (scope.sourceId !== undefined) query = query.where('source_id', '=', scope.sourceId);
  return query;
}

export const aggregatesStore = {
  counts: async (trx: Trx, scope: Scope) => {
    const rows = await scoped(trx, scope).select(['ingestion_status', trx.fn.countAll<number>().as('n')]).groupBy('ingestion_status').execute();
    return new Map(rows.map((row) => [row.ingestion_status as string, Number(row.n)]));
  },

  /** Runs that ended (ready or error) within the last `minutes`. */
  completedSince: async (trx: Trx, scope: Scope, minutes: number) => {
    const row = await scoped(trx, scope).select(trx.fn.countAll<number>().as('n'))
      .where('ingestion_status', 'in', ['ready', 'error'])
      .where('completed_at', '>=', sql<Date>`now() - make_interval(mins => ${minutes})`)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** Error texts grouped by their first line, most frequent first. */
  topErrors: async (trx: Trx, scope: Scope, limit: number) => {
    const reason = sql<string>`left(split_part(coalesce(error, 'unknown error'), E'\n', 1), 200)`;
    const rows = await scoped(trx, scope).select([reason.as('reason'), trx.fn.countAll<number>().as('count')])
      .where('ingestion_status', '=', 'error').groupBy(reason).orderBy('count', 'desc').orderBy('reason').limit(limit).execute();
    return rows.map((row) => ({ reason: row.reason, count: Number(row.count) }));
  },

  errors: async (trx: Trx, scope: Scope, skip: number, limit: number) => {
    const query = scoped(trx, scope).where('ingestion_status', '=', 'error');
    const [items, count] = await Promise.all([
      query.select(['id', 'collection_id', 'source_id', 'name', 'filename', 'content_type', 'error', 'stage', 'started_at', 'completed_at'])
        .orderBy('completed_at', 'desc').orderBy('id').offset(skip).limit(limit).execute(),
      query.select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  },
};

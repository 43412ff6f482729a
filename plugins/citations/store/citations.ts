// kysely queries for the citations table. Every function takes a tenant
// transaction: row-level security limits them to the tenant's rows.
import { sql, type Insertable, type Updateable } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import type { VerificationStatus } from '../api.ts';
import type { CitationRow, CitationsTable } from './tables.ts';
import './tables.ts';

/** The filters of GET /api/citations, also used by GraphQL and stats. */
export interface CitationFilter {
  document_id?: string;
  collection_id?: number;
  execution_context_type?: string;
  execution_context_id?: string;
  verification_status?: VerificationStatus;
  /** Case-insensitive partial match. */
  document_name?: string;
  /** Inclusive bounds on created_at (REST's date_from / date_to). */
  date_from?: Date;
  date_to?: Date;
  /** Exclusive upper bound on created_at (GraphQL's createdBefore). */
  created_before?: Date;
  /** Only citations recorded for this client (what an API key of the client may see). */
  client_id?: number;
}

export type NewCitation = Insertable<CitationsTable>;
export type VerificationUpdate = Pick<Updateable<CitationsTable>,
  'verification_status' | 'match_type' | 'match_score' | 'matched_span_start' | 'matched_span_end' | 'verified_at'
  | 'verified_by_context_type' | 'verified_by_context_id'>;

/** A LIKE pattern that matches `text` literally anywhere (backslash is LIKE's escape character). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

function filtered(trx: TenantTransaction, filter: CitationFilter) {
  let query = trx.selectFrom('citations');
  if (filter.document_id !== undefined) query = query.where('document_id', '=', filter.document_id);
  if (filter.collection_id !== undefined) query = query.where('collection_id', '=', filter.collection_id);
  if (filter.execution_context_type !== undefined) query = query.where('execution_context_type', '=', filter.execution_context_type);
  if (filter.execution_context_id !== undefined) query = query.where('execution_context_id', '=', filter.execution_context_id);
  if (filter.verification_status !== undefined) query = query.where('verification_status', '=', filter.verification_status);
  if (filter.document_name !== undefined) query = query.where('document_name', 'ilike', containing(filter.document_name));
  if (filter.date_from !== undefined) query = query.where('created_at', '>=', filter.date_from);
  if (filter.date_to !== undefined) query = query.where('created_at', '<=', filter.date_to);
  if (filter.created_before !== undefined) query = query.where('created_at', '<', filter.created_before);
  if (filter.client_id !== undefined) query = query.where('client_id', '=', filter.client_id);
  return query;
}

export const citationsStore = {
  insert: (trx: TenantTransaction, rows: NewCitation[]): Promise<CitationRow[]> =>
    rows.length === 0 ? Promise.resolve([]) : trx.insertInto('citations').values(rows).returningAll().execute(),

  get: (trx: TenantTransaction, id: string): Promise<CitationRow | undefined> =>
    trx.selectFrom('citations').selectAll().where('id', '=', id).executeTakeFirst(),

  getMany: (trx: TenantTransaction, ids: readonly string[]): Promise<CitationRow[]> =>
    ids.length === 0 ? Promise.resolve([]) : trx.selectFrom('citations').selectAll().where('id', 'in', [...ids]).execute(),

  /** Locks the rows being verified, so that two verifications of one citation apply one after the other. */
  lockMany: (trx: TenantTransaction, ids: readonly string[]): Promise<CitationRow[]> =>
    ids.length === 0 ? Promise.resolve([]) : trx.selectFrom('citations').selectAll().where('id', 'in', [...ids]).orderBy('id').forUpdate().execute(),

  update: (trx: TenantTransaction, id: string, values: VerificationUpdate): Promise<CitationRow | undefined> =>
    trx.updateTable('citations').set(values).where('id', '=', id).returningAll().executeTakeFirst(),

  /** Marks the named citations pending (of one client only, when clientId is given). */
  markPending: async (trx: TenantTransaction, ids: readonly string[], clientId?: number): Promise<string[]> => {
    if (ids.length === 0) return [];
    let query = trx.updateTable('citations').set({ verification_status: 'pending' }).where('id', 'in', [...ids]);
    if (clientId !== undefined) query = query.where('client_id', '=', clientId);
    const rows = await query.returning('id').execute();
    return rows.map((row) => row.id);
  },

  /** Newest first, offset paging (REST). */
  list: (trx: TenantTransaction, filter: CitationFilter, skip: number, limit: number): Promise<CitationRow[]> =>
    filtered(trx, filter).selectAll().orderBy('seq', 'desc').offset(skip).limit(limit).execute(),

  /**
   * A keyset page of the list, newest first (GraphQL), on `seq`: stable while
   * citations are added. Forward: older than `seq`, newest first; backward:
   * newer than `seq`, oldest first (the reverse of the list's order).
   */
  page: (trx: TenantTransaction, filter: CitationFilter, page: { direction: 'forward' | 'backward'; seq: number | undefined; limit: number }): Promise<CitationRow[]> => {
    let query = filtered(trx, filter).selectAll();
    const forward = page.direction === 'forward';
    if (page.seq !== undefined) query = query.where('seq', forward ? '<' : '>', page.seq);
    return query.orderBy('seq', forward ? 'desc' : 'asc').limit(page.limit).execute();
  },

  /** Records the message the citations were made in. */
  assignMessage: async (trx: TenantTransaction, ids: readonly string[], messageId: number): Promise<void> => {
    if (ids.length > 0) await trx.updateTable('citations').set({ message_id: messageId }).where('id', 'in', [...ids]).execute();
  },

  /** The citations of these messages, in creation order (of one client only, when clientId is given). */
  ofMessages: (trx: TenantTransaction, messageIds: readonly number[], clientId?: number): Promise<CitationRow[]> => {
    if (messageIds.length === 0) return Promise.resolve([]);
    let query = trx.selectFrom('citations').selectAll().where('message_id', 'in', [...messageIds]);
    if (clientId !== undefined) query = query.where('client_id', '=', clientId);
    return query.orderBy('seq').execute();
  },

  count: async (trx: TenantTransaction, filter: CitationFilter): Promise<number> => {
    const row = await filtered(trx, filter).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    return row.n;
  },

  countByStatus: async (trx: TenantTransaction, filter: CitationFilter): Promise<Map<VerificationStatus, number>> => {
    const rows = await filtered(trx, filter)
      .select(['verification_status', sql<number>`count(*)::int`.as('n')])
      .groupBy('verification_status').execute();
    return new Map(rows.map((row) => [row.verification_status, row.n]));
  },

  /** The newest citation of a chunk at a revision made in a context (the chat citation status endpoint). */
  latestInContext: (trx: TenantTransaction, context: { type: string; id: string }, chunkId: string, revisionId: string) =>
    trx.selectFrom('citations').selectAll()
      .where('execution_context_type', '=', context.type).where('execution_context_id', '=', context.id)
      .where('chunk_id', '=', chunkId).where('revision_id', '=', revisionId)
      .orderBy('seq', 'desc').limit(1).executeTakeFirst(),
};

// SQL of uploaded files; always in a tenant transaction (a token of another
// tenant is simply not found: row-level security).
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

const META = ['id', 'payload_path', 'name', 'content_type', 'size', 'redacted_at'] as const;

export const filesStore = {
  insert: (trx: TenantTransaction, tenantId: string, values: {
    token_hash: string; uploaded_by: string; name: string; content_type: string; size: number; content: Buffer; expires_at: Date;
  }) => trx.insertInto('forms_files').values({ tenant_id: tenantId, ...values }).returning(['id', 'name', 'content_type', 'size', 'expires_at']).executeTakeFirstOrThrow(),

  /** The file of a token, locked: two submissions naming one token cannot both consume it. */
  byTokenForUpdate: (trx: TenantTransaction, tokenHash: string) =>
    trx.selectFrom('forms_files').select(['id', 'uploaded_by', 'name', 'content_type', 'size', 'expires_at', 'consumed_at'])
      .where('token_hash', '=', tokenHash).forUpdate().executeTakeFirst(),

  consume: (trx: TenantTransaction, id: string, submissionId: string, path: string, at: Date) =>
    trx.updateTable('forms_files').set({ submission_id: submissionId, payload_path: path, consumed_at: at }).where('id', '=', id).execute(),

  /** Gives files to another plugin's object (FormsApi.claimFiles). */
  consumeForOwner: (trx: TenantTransaction, ids: string[], owner: { plugin: string; id: string }, at: Date) =>
    trx.updateTable('forms_files').set({ owner_plugin: owner.plugin, owner_id: owner.id, consumed_at: at }).where('id', 'in', ids).execute(),

  ofSubmission: (trx: TenantTransaction, submissionId: string) =>
    trx.selectFrom('forms_files').select(META).where('submission_id', '=', submissionId).orderBy('created_at').orderBy('id').execute(),

  content: (trx: TenantTransaction, submissionId: string, fileId: string) =>
    trx.selectFrom('forms_files').select([...META, 'content']).where('submission_id', '=', submissionId).where('id', '=', fileId).executeTakeFirst(),

  /** Empties a submission's files: the bytes go, the record of their existence stays. */
  redact: (trx: TenantTransaction, submissionId: string, at: Date) =>
    trx.updateTable('forms_files').set({ content: Buffer.alloc(0), size: 0, name: '[redacted]', redacted_at: at })
      .where('submission_id', '=', submissionId).where('redacted_at', 'is', null).executeTakeFirst(),

  /**
   * Serializes the tenant's anonymous uploads until the transaction ends, so
   * that a quota check and the insert it allows are one step (on the embedded
   * database, where advisory locks count nothing, transactions already run
   * one at a time).
   */
  lockAnonymousQuota: (trx: TenantTransaction, tenantId: string) =>
    sql`SELECT pg_advisory_xact_lock(hashtextextended(${`forms_files.anonymous:${tenantId}`}, 0))`.execute(trx),

  /** Bytes of the tenant's unconsumed anonymous uploads; with `liveAt`, only those not yet expired then. */
  anonymousBytes: async (trx: TenantTransaction, liveAt?: Date) => {
    let query = trx.selectFrom('forms_files').select(sql<string>`coalesce(sum(size), 0)`.as('bytes'))
      .where('uploaded_by', '=', 'anonymous').where('consumed_at', 'is', null);
    if (liveAt) query = query.where('expires_at', '>', liveAt);
    return Number((await query.executeTakeFirstOrThrow()).bytes);
  },

  /** Deletes unconsumed files past their expiry; returns how many. */
  pruneExpired: async (trx: TenantTransaction, before: Date) => Number((await trx.deleteFrom('forms_files')
    .where('consumed_at', 'is', null).where('expires_at', '<', before).executeTakeFirst()).numDeletedRows),
};

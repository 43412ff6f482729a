// SQL of submissions, their hydration attempts and redactions; always in a
// tenant transaction. A submission's hydration status is its latest
// attempt's; its object is the latest successful attempt's.
import { type KeysetPage, sql, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

export interface SubmissionFilter {
  useCaseId?: string;
  from?: Date;
  to?: Date;
  hydrationStatus?: 'hydrated' | 'failed';
}

function selectSubmissions(trx: TenantTransaction) {
  return trx.selectFrom('forms_submissions as s')
    .leftJoinLateral(
      (eb) => eb.selectFrom('forms_hydrations as a').select(['a.status', 'a.attempt'])
        .whereRef('a.submission_id', '=', 's.id').orderBy('a.attempt', 'desc').limit(1).as('latest'),
      (join) => join.onTrue(),
    )
    .leftJoinLateral(
      (eb) => eb.selectFrom('forms_hydrations as h').select(['h.target_model', 'h.object_id', 'h.object'])
        .whereRef('h.submission_id', '=', 's.id').where('h.status', '=', 'hydrated').orderBy('h.attempt', 'desc').limit(1).as('done'),
      (join) => join.onTrue(),
    )
    .select([
      's.id', 's.seq', 's.use_case_id', 's.definition_id', 's.form_version', 's.payload_json', 's.municipality', 's.submitted_by',
      's.created_at', 's.redacted_at', 'latest.status as hydration_status', 'latest.attempt as attempts',
      'done.target_model', 'done.object_id', 'done.object',
    ]);
}

export type SubmissionRow = Awaited<ReturnType<ReturnType<typeof selectSubmissions>['executeTakeFirstOrThrow']>>;

function filtered(trx: TenantTransaction, filter: SubmissionFilter) {
  let query = selectSubmissions(trx);
  if (filter.useCaseId) query = query.where('s.use_case_id', '=', filter.useCaseId);
  if (filter.from) query = query.where('s.created_at', '>=', filter.from);
  if (filter.to) query = query.where('s.created_at', '<', filter.to);
  if (filter.hydrationStatus) query = query.where('latest.status', '=', filter.hydrationStatus);
  return query;
}

export const submissionsStore = {
  insert: (trx: TenantTransaction, tenantId: string, values: {
    id: string; use_case_id: string; definition_id: string; form_version: number; payload_json: Record<string, unknown>; municipality: string | null; submitted_by: string | null;
  }) => trx.insertInto('forms_submissions').values({ tenant_id: tenantId, ...values, payload_json: JSON.stringify(values.payload_json) })
    .returning(['id', 'created_at']).executeTakeFirstOrThrow(),

  find: (trx: TenantTransaction, id: string, forUpdate = false) => {
    const query = selectSubmissions(trx).where('s.id', '=', id);
    return (forUpdate ? query.forUpdate('s') : query).executeTakeFirst();
  },

  async list(trx: TenantTransaction, filter: SubmissionFilter, skip: number, limit: number) {
    const items = await filtered(trx, filter).orderBy('s.seq', 'desc').offset(skip).limit(limit).execute();
    const { total } = await trx.selectFrom(filtered(trx, filter).as('f')).select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
    return { items, total: Number(total) };
  },

  /**
   * A keyset page of the list newest first (by `seq`, a decimal string):
   * forward, the submissions before the cursor's, newest first; backward,
   * those after it, oldest first (GraphQL connections).
   */
  page: (trx: TenantTransaction, filter: SubmissionFilter, page: KeysetPage<string>) => {
    const forward = page.direction === 'forward';
    let query = filtered(trx, filter);
    if (page.cursor !== undefined) query = query.where('s.seq', forward ? '<' : '>', page.cursor);
    return query.orderBy('s.seq', forward ? 'desc' : 'asc').limit(page.limit).execute();
  },

  count: async (trx: TenantTransaction, filter: SubmissionFilter) =>
    Number((await trx.selectFrom(filtered(trx, filter).as('f')).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n),

  addHydration: (trx: TenantTransaction, tenantId: string, values: {
    submission_id: string; attempt: number; status: 'hydrated' | 'failed'; target_model: string; object_id: string | null;
    object: Record<string, unknown> | null; errors: { field: string; message: string }[]; created_by: string | null;
  }) => trx.insertInto('forms_hydrations').values({
    tenant_id: tenantId, ...values, object: values.object === null ? null : JSON.stringify(values.object), errors: JSON.stringify(values.errors),
  }).returning(['attempt', 'status', 'created_at']).executeTakeFirstOrThrow(),

  hydrations: (trx: TenantTransaction, submissionId: string) =>
    trx.selectFrom('forms_hydrations').select(['attempt', 'status', 'target_model', 'object_id', 'errors', 'created_by', 'created_at'])
      .where('submission_id', '=', submissionId).orderBy('attempt').execute(),

  redact: (trx: TenantTransaction, id: string, payload: Record<string, unknown>) =>
    trx.updateTable('forms_submissions').set({ payload_json: JSON.stringify(payload), redacted_at: sql<Date>`clock_timestamp()` as never })
      .where('id', '=', id).execute(),

  /** A redaction also drops the snapshots of hydrated objects (copies of payload values); the objects live in their targets. */
  forgetObjects: (trx: TenantTransaction, submissionId: string) =>
    trx.updateTable('forms_hydrations').set({ object: null }).where('submission_id', '=', submissionId).execute(),

  addRedaction: (trx: TenantTransaction, tenantId: string, values: { submission_id: string; redacted_by: string; reason: string; fields: string[]; files: number }) =>
    trx.insertInto('forms_redactions').values({ tenant_id: tenantId, ...values, fields: JSON.stringify(values.fields) }).execute(),

  /** A rehydration runs the target behind a savepoint: its failure undoes the target's work, not the attempt's record. */
  savepoint: (trx: TenantTransaction) => sql`SAVEPOINT forms_rehydrate`.execute(trx),
  releaseSavepoint: (trx: TenantTransaction) => sql`RELEASE SAVEPOINT forms_rehydrate`.execute(trx),
  rollbackToSavepoint: (trx: TenantTransaction) => sql`ROLLBACK TO SAVEPOINT forms_rehydrate`.execute(trx),

  redactions: (trx: TenantTransaction, submissionId: string) =>
    trx.selectFrom('forms_redactions').select(['redacted_by', 'reason', 'fields', 'files', 'created_at'])
      .where('submission_id', '=', submissionId).orderBy('id').execute(),
};

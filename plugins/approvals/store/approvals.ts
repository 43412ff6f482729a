// kysely queries for the approvals tables. Every query takes a tenant
// transaction (row-level security scopes it to the tenant); the users
// directory (core's global `users` table) is read through the system handle.
import { sql, type CoreServices, type KeysetPage, type TenantTransaction } from 'agent-platform/sdk';
import type { ApprovalCase, ApprovalSource, Approvers, CaseStatus, Decision } from '../api.ts';
import './tables.ts';

const columns = [
  'id', 'title', 'description', 'payload', 'source', 'approvers', 'quorum', 'status', 'decisions',
  'requested_by', 'expires_at', 'created_at', 'resolved_at',
] as const;

export interface CaseFilter {
  status?: CaseStatus;
  source_type?: ApprovalSource['type'];
  /** Only cases this person may decide: listed by sub or holding one of the roles. */
  decidableBy?: { sub: string; roles: string[] };
}

/** A keyset cursor of the list newest first: created_at (to the millisecond, ISO) and id. */
export type CaseKey = [string, string];

/** created_at to the millisecond: what a cursor can hold, so keyset pages order and compare by it. */
const createdMs = sql<Date>`date_trunc('milliseconds', created_at)`;

function filtered(trx: TenantTransaction, filter: CaseFilter) {
  let query = trx.selectFrom('approval_cases');
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.source_type) query = query.where('source_type', '=', filter.source_type);
  if (filter.decidableBy) {
    const { sub, roles } = filter.decidableBy;
    query = query.where((eb) => eb.or([
      eb(sql`approver_users`, '@>', sql`ARRAY[${sub}]::text[]`),
      ...(roles.length > 0 ? [eb(sql`approver_roles`, '&&', sql`${roles}::text[]`)] : []),
    ]));
  }
  return query;
}

export interface InsertCase {
  id: string;
  tenant_id: string;
  title: string;
  description: string;
  payload: unknown;
  source: ApprovalSource;
  approvers: Approvers;
  quorum: number;
  requested_by: string;
  expires_at: Date;
}

export const casesStore = {
  insert: (trx: TenantTransaction, values: InsertCase): Promise<ApprovalCase> =>
    trx.insertInto('approval_cases').values({
      ...values,
      payload: JSON.stringify(values.payload ?? {}),
      source: JSON.stringify(values.source),
      source_type: values.source.type,
      approvers: JSON.stringify(values.approvers),
      approver_roles: values.approvers.roles ?? [],
      approver_users: values.approvers.users ?? [],
    }).returning([...columns]).executeTakeFirstOrThrow(),

  get: (trx: TenantTransaction, id: string): Promise<ApprovalCase | undefined> =>
    trx.selectFrom('approval_cases').select([...columns]).where('id', '=', id).executeTakeFirst(),

  /** The case, locked: decisions, expiry and cancel serialize on it, so a quorum counts exactly. */
  lock: (trx: TenantTransaction, id: string): Promise<ApprovalCase | undefined> =>
    trx.selectFrom('approval_cases').select([...columns]).where('id', '=', id).forUpdate().executeTakeFirst(),

  /** The pending case a workflow's gate step waits on, locked. */
  pendingOfStep: (trx: TenantTransaction, executionId: string, stepId: string) =>
    trx.selectFrom('approval_cases').select('id').where('source_type', '=', 'workflow').where('status', '=', 'pending')
      .where(sql<string>`source->>'execution_id'`, '=', executionId).where(sql<string>`source->>'step_id'`, '=', stepId)
      .forUpdate().execute(),

  /** The pending case of one tool call of a chat turn, locked. */
  pendingOfToolCall: (trx: TenantTransaction, turnId: string, toolCallId: string) =>
    trx.selectFrom('approval_cases').select('id').where('source_type', '=', 'agent').where('status', '=', 'pending')
      .where(sql<string>`source->>'turn_id'`, '=', turnId).where(sql<string>`source->>'tool_call_id'`, '=', toolCallId)
      .forUpdate().execute(),

  resolve: (trx: TenantTransaction, id: string, values: { status: CaseStatus; decisions: Decision[] }): Promise<ApprovalCase> =>
    trx.updateTable('approval_cases')
      .set({ status: values.status, decisions: JSON.stringify(values.decisions), ...(values.status === 'pending' ? {} : { resolved_at: sql`now()` as never }) })
      .where('id', '=', id).returning([...columns]).executeTakeFirstOrThrow(),

  /** Cases settled at or after `since` (by the database clock), oldest first: what the subscription polls. */
  resolvedSince: (trx: TenantTransaction, since: Date, limit: number): Promise<ApprovalCase[]> =>
    trx.selectFrom('approval_cases').select([...columns]).where('resolved_at', '>=', since)
      .orderBy('resolved_at').orderBy('id').limit(limit).execute(),

  /** The database's clock (resolved_at is stamped by it). */
  now: async (trx: TenantTransaction): Promise<Date> => (await sql<{ now: Date }>`SELECT clock_timestamp() AS now`.execute(trx)).rows[0].now,

  /** Newest first, a page (skip, limit), with the total of the filter. */
  list: async (trx: TenantTransaction, filter: CaseFilter, skip: number, limit: number) => {
    const query = filtered(trx, filter);
    const [items, count] = await Promise.all([
      query.select([...columns]).orderBy('created_at', 'desc').orderBy('id', 'desc').offset(skip).limit(limit).execute(),
      query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  },

  /**
   * A keyset page of the list newest first (created_at to the millisecond,
   * then id): forward, the cases after the cursor's, newest first; backward,
   * those before it, oldest first.
   */
  page: (trx: TenantTransaction, filter: CaseFilter, page: KeysetPage<CaseKey>): Promise<ApprovalCase[]> => {
    const forward = page.direction === 'forward';
    let query = filtered(trx, filter).select([...columns]);
    if (page.cursor) {
      const [at, id] = page.cursor;
      query = query.where(sql<boolean>`(${createdMs}, id) ${sql.raw(forward ? '<' : '>')} (${new Date(at)}::timestamptz, ${id}::uuid)`);
    }
    const direction = forward ? 'desc' : 'asc';
    return query.orderBy(createdMs, direction).orderBy('id', direction).limit(page.limit).execute();
  },

  count: async (trx: TenantTransaction, filter: CaseFilter): Promise<number> =>
    Number((await filtered(trx, filter).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n),
};

export const linkUsesStore = {
  /** Records the use of an approver's link; false when it was used before. */
  claim: async (trx: TenantTransaction, tenantId: string, caseId: string, approver: string): Promise<boolean> => {
    const row = await trx.insertInto('approval_link_uses').values({ tenant_id: tenantId, case_id: caseId, approver })
      .onConflict((oc) => oc.doNothing()).returning('approver').executeTakeFirst();
    return Boolean(row);
  },
};

/** The platform's users directory (core's global `users`): roles of a member of a tenant. */
export const directoryStore = {
  rolesOf: async (db: CoreServices['db'], tenantId: string, sub: string): Promise<string[] | undefined> => {
    const row = await db.selectFrom('users').select(['organizations', 'service_account']).where('sub', '=', sub).executeTakeFirst();
    if (!row || row.service_account) return undefined;
    const membership = (row.organizations as Record<string, { roles?: string[] }>)[tenantId];
    return membership ? (membership.roles ?? []) : undefined;
  },

  /** Human members of the tenant listed by sub or holding one of the roles (for decision links; the first 1000 members by sub). */
  holders: async (db: CoreServices['db'], tenantId: string, approvers: Approvers): Promise<string[]> => {
    const rows = await db.selectFrom('users').select(['sub', 'organizations']).where('service_account', '=', false)
      .where(sql<boolean>`organizations ? ${tenantId}`).orderBy('sub').limit(1000).execute();
    const roles = new Set(approvers.roles ?? []);
    const users = new Set(approvers.users ?? []);
    return rows.filter((row) => {
      const held = (row.organizations as Record<string, { roles?: string[] }>)[tenantId]?.roles ?? [];
      return users.has(row.sub) || held.some((role) => roles.has(role));
    }).map((row) => row.sub);
  },
};

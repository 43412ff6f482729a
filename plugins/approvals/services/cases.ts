// The life of an approval case inside a tenant transaction: open it (event,
// expiry timer), record a decision under its row lock (so a quorum counts
// exactly and one approval.resolved is emitted), and settle it (approved,
// rejected, expired, cancelled). Whoever waits for it (a workflow's gate, a
// chat turn) is told by the approvals.notify job enqueued in the settling
// transaction: it exists exactly when the resolution committed, survives a
// restart, and its calls are idempotent.
import { randomUUID } from 'node:crypto';
import { badRequest, conflict, Joi, type CoreServices, type TenantTransaction } from 'agent-platform/sdk';
import type { ApprovalCase, ApprovalSource, CaseOutcome, CaseStatus, Decision, NewCase } from '../api.ts';
import { APPROVAL_CREATED, APPROVAL_RESOLVED, EVENT_SOURCE } from '../event-types.ts';
import { newCaseFields } from '../schemas.ts';
import { casesStore } from '../store/approvals.ts';

export const EXPIRE_TASK = 'approvals.expire';
export const NOTIFY_TASK = 'approvals.notify';
export const MAIL_TASK = 'approvals.mail';
export const expireKey = (caseId: string) => `approvals.expire:${caseId}`;
export const notifyKey = (caseId: string) => `approvals.notify:${caseId}`;
export const mailKey = (caseId: string) => `approvals.mail:${caseId}`;

export const DEFAULT_TIMEOUT_SECONDS = 7 * 24 * 3600;
export const DEFAULT_APPROVERS = { roles: ['admin'] };

const caseInput = Joi.object(newCaseFields);

export interface CaseDeps {
  core: Pick<CoreServices, 'jobs' | 'events' | 'clock'>;
  /** Whether approvers are e-mailed when a case opens (the mail plugin is loaded). */
  mailing?: boolean;
}

/** The output a waiting workflow or agent gets. */
export function outcomeOf(row: ApprovalCase): CaseOutcome {
  return { case_id: row.id, status: row.status, decisions: row.decisions, timed_out: row.status === 'expired' };
}

/** A new case's fields, checked before any statement (a 400 INVALID_APPROVAL changes nothing). */
export function checkedInput(input: unknown): Required<Omit<NewCase, 'payload'>> & { payload: unknown } {
  const { value, error } = caseInput.validate(input, { abortEarly: false, stripUnknown: false });
  if (error) throw badRequest(`Invalid approval case: ${error.details.map((d) => d.message).join('; ')}`, 'INVALID_APPROVAL');
  const approvers = value.approvers ?? DEFAULT_APPROVERS;
  if ((approvers.roles?.length ?? 0) + (approvers.users?.length ?? 0) === 0) {
    throw badRequest('Invalid approval case: approvers must name at least one role or user', 'INVALID_APPROVAL');
  }
  return {
    title: value.title, description: value.description ?? '', payload: value.payload ?? {},
    approvers: { roles: approvers.roles ?? [], users: approvers.users ?? [] },
    quorum: value.quorum ?? 1, timeout_seconds: value.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS,
  };
}

export function createCases({ core, mailing = false }: CaseDeps) {
  const emit = (trx: TenantTransaction, tenantId: string, type: string, data: Record<string, unknown>) =>
    core.events.emit(trx, tenantId, { type, source: EVENT_SOURCE, data });

  const cases = {
    /** Opens a case (validated first: nothing is written for bad input). */
    async open(trx: TenantTransaction, tenantId: string, input: unknown, source: ApprovalSource, requestedBy: string): Promise<ApprovalCase> {
      const fields = checkedInput(input);
      const expiresAt = new Date(core.clock.now().getTime() + fields.timeout_seconds * 1000);
      const row = await casesStore.insert(trx, {
        id: randomUUID(), tenant_id: tenantId, title: fields.title, description: fields.description, payload: fields.payload,
        source, approvers: fields.approvers, quorum: fields.quorum, requested_by: requestedBy, expires_at: expiresAt,
      });
      await core.jobs.enqueue(EXPIRE_TASK, { tenant_id: tenantId, case_id: row.id }, { trx, jobKey: expireKey(row.id), runAt: expiresAt });
      if (mailing) await core.jobs.enqueue(MAIL_TASK, { tenant_id: tenantId, case_id: row.id }, { trx, jobKey: mailKey(row.id) });
      await emit(trx, tenantId, APPROVAL_CREATED, {
        case_id: row.id, status: row.status, title: row.title, source: row.source, approvers: row.approvers,
        quorum: row.quorum, expires_at: row.expires_at.toISOString(), decisions: [],
      });
      return row;
    },

    /**
     * Records one decision on a locked, pending case: one rejection rejects,
     * `quorum` approvals approve. The caller checked who decides.
     */
    async decide(trx: TenantTransaction, tenantId: string, row: ApprovalCase, by: string, decision: Decision['decision'], comment: string | null, via: Decision['via']) {
      if (row.status !== 'pending') throw conflict(`The approval case is already ${row.status}`, 'APPROVAL_RESOLVED');
      if (row.decisions.some((d) => d.by === by)) throw conflict(`${by} has already decided this case`, 'ALREADY_DECIDED');
      const decisions = [...row.decisions, { by, decision, comment: comment || null, decided_at: core.clock.now().toISOString(), via }];
      const approvals = decisions.filter((d) => d.decision === 'approve').length;
      const status: CaseStatus = decision === 'reject' ? 'rejected' : approvals >= row.quorum ? 'approved' : 'pending';
      if (status === 'pending') return casesStore.resolve(trx, row.id, { status, decisions });
      return cases.settle(trx, tenantId, row, status, decisions);
    },

    /** Ends a locked, pending case: its timer goes, approval.resolved is emitted and whoever waits is told (a job). */
    async settle(trx: TenantTransaction, tenantId: string, row: ApprovalCase, status: Exclude<CaseStatus, 'pending'>, decisions = row.decisions) {
      const settled = await casesStore.resolve(trx, row.id, { status, decisions });
      if (status !== 'expired') await core.jobs.removeJob(expireKey(row.id), trx);
      await core.jobs.enqueue(NOTIFY_TASK, { tenant_id: tenantId, case_id: row.id }, { trx, jobKey: notifyKey(row.id) });
      await emit(trx, tenantId, APPROVAL_RESOLVED, { ...outcomeOf(settled), source: settled.source, title: settled.title });
      return settled;
    },

    /** Cancels the pending cases of `ids` (locked by the caller's query). */
    async cancelAll(trx: TenantTransaction, tenantId: string, ids: { id: string }[]) {
      for (const { id } of ids) {
        const row = await casesStore.lock(trx, id);
        if (row?.status === 'pending') await cases.settle(trx, tenantId, row, 'cancelled');
      }
    },
  };
  return cases;
}

export type Cases = ReturnType<typeof createCases>;

// E-mail to approvers, through the mail plugin's outbox when the manifest
// loads it. The users directory has no e-mail field: an approver is written
// to when their subject is an e-mail address (as OIDC providers that use the
// address as subject give). The approvals.mail job, enqueued in the
// transaction that opens a case, writes one message per such approver (the
// case's title and description, that approver's own one-time approve and
// reject links) while the case is still pending. Repeating it writes nothing
// new: the outbox keeps one message per origin, case and recipient.
import { Joi, type CoreServices } from 'agent-platform/sdk';
import type { MailApi } from '../../mail/api.ts';
import type { ApprovalCase } from '../api.ts';
import type { CaseLinks } from '../services/approvals.ts';
import { casesStore } from '../store/approvals.ts';

/** The outbox origin of these messages: origin_id is the case's id. */
export const MAIL_ORIGIN = 'approvals.notification';

const address = Joi.string().max(320).email({ tlds: false });
export const isEmailAddress = (sub: string) => !address.validate(sub).error;

export function approverMail(row: ApprovalCase, link: CaseLinks) {
  const lines = [
    `${row.requested_by} asks for your decision on "${row.title}".`,
    ...(row.description ? ['', row.description] : []),
    '',
    `Approve: ${link.approve_url}`,
    `Reject: ${link.reject_url}`,
    '',
    `Each link is yours alone, works once and expires at ${row.expires_at.toISOString()}. Opening it shows a confirmation page: nothing is decided until you confirm there.`,
  ];
  return { to: link.approver, subject: `Approval requested: ${row.title}`, text: lines.join('\n'), origin: MAIL_ORIGIN, originId: row.id };
}

export interface ApproverMailDeps {
  core: Pick<CoreServices, 'withTenant'>;
  linksOf(tenantId: string, row: ApprovalCase): Promise<CaseLinks[]>;
  mail(): MailApi | undefined;
}

/** Writes the messages of a pending case's approvers to the outbox; how many approvers have an address. */
export async function mailApprovers(deps: ApproverMailDeps, tenantId: string, caseId: string): Promise<number> {
  const mail = deps.mail();
  if (!mail) return 0;
  const row = await deps.core.withTenant(tenantId, (trx) => casesStore.get(trx, caseId));
  if (row?.status !== 'pending') return 0;
  // The users directory is read on its own connection, before the writing transaction.
  const links = (await deps.linksOf(tenantId, row)).filter((link) => isEmailAddress(link.approver));
  if (links.length === 0) return 0;
  await deps.core.withTenant(tenantId, async (trx) => {
    for (const link of links) await mail.send(trx, tenantId, approverMail(row, link));
  });
  return links.length;
}

// `approvals.mail`: enqueued in the transaction that opens a case when the
// mail plugin is loaded (key `approvals.mail:<case>`); writes the approvers'
// messages to the outbox (peers/mail.ts). Idempotent.
import type { FastTaskHandler } from 'agent-platform/sdk';
import { mailApprovers, type ApproverMailDeps } from '../peers/mail.ts';

export interface MailPayload {
  tenant_id: string;
  case_id: string;
}

export function mailTask(deps: ApproverMailDeps): FastTaskHandler {
  return async (payload: MailPayload) => {
    await mailApprovers(deps, payload.tenant_id, payload.case_id);
  };
}

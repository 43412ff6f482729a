// `approvals.expire`: a case's timer, a keyed job (`approvals.expire:<case>`)
// run at its expires_at, removed when the case is decided or cancelled. The
// job is the clock (tests move its run_at): a case still pending when it runs
// becomes `expired`, and whoever waits gets `timed_out: true`.
import type { CoreServices, FastTaskHandler } from 'agent-platform/sdk';
import type { Cases } from '../services/cases.ts';
import { casesStore } from '../store/approvals.ts';

export interface ExpirePayload {
  tenant_id: string;
  case_id: string;
}

export function expireTask(core: Pick<CoreServices, 'withTenant'>, cases: Cases): FastTaskHandler {
  return async (payload: ExpirePayload) => {
    await core.withTenant(payload.tenant_id, async (trx) => {
      const row = await casesStore.lock(trx, payload.case_id);
      if (row?.status === 'pending') await cases.settle(trx, payload.tenant_id, row, 'expired');
    });
  };
}

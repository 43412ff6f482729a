// The one factory of the approvals plugin's services: its register and its
// CLI commands both build them here.
import type { CoreServices } from 'agent-platform/sdk';
import type { MailApi } from '../mail/api.ts';
import type { ApprovalsApi } from './api.ts';
import { createCases } from './services/cases.ts';
import { createLive } from './services/live.ts';
import type { ApprovalsOptions } from './options.ts';
import { createApprovalsService } from './services/approvals.ts';

export function createServices(core: CoreServices, options: ApprovalsOptions, mail: () => MailApi | undefined = () => undefined) {
  const cases = createCases({ core, mailing: mail() !== undefined });
  const approvals = createApprovalsService(core, cases, options);
  const api: ApprovalsApi = { create: (trx, tenantId, input, source, requestedBy) => cases.open(trx, tenantId, input, source, requestedBy) };
  const live = createLive({ withTenant: core.withTenant, logger: core.logger, pollMs: options.subscriptionPollMs });
  const approverMail = { core, linksOf: approvals.linksOf, mail };
  return { cases, approvals, live, api, approverMail };
}

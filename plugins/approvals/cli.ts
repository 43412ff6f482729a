// CLI commands of the approvals plugin. The CLI acts as the operator on the
// database (it lists and shows every case, like an admin). Only people decide:
// `approve`/`reject` record the decision of the approver named with --as,
// who must be among the case's approvers in the users directory (listed, or
// holding one of its roles in the tenant). The server's workers tell the
// waiting workflow or agent (the approvals.notify job).
import type { CoreServices, Principal } from 'agent-platform/sdk';
import { defineCli, UsageError } from 'agent-platform/sdk/cli';
import type { ApprovalsOptions } from './options.ts';

const tenant = { type: 'string', description: 'tenant alias', required: true } as const;
const OPERATOR: Principal = { kind: 'super_admin', sub: 'super-admin' };
const STATUSES = ['pending', 'approved', 'rejected', 'expired', 'cancelled'];

const decideOptions = {
  tenant,
  as: { type: 'string', description: 'the approver\'s subject (a user of the tenant among the case\'s approvers)', required: true },
  comment: { type: 'string', description: 'a comment kept with the decision' },
} as const;

/** The plugin's services, imported when a command runs (the declarations load nothing else). */
const services = async (core: CoreServices, options: ApprovalsOptions) => (await import('./services.ts')).createServices(core, options);

export const cli = defineCli(services, (command) => [
  command({
    name: 'approvals list',
    description: 'List a tenant\'s approval cases, newest first',
    options: { tenant, status: { type: 'string', description: STATUSES.join(' | ') } },
    run: async ({ approvals }, { options }) => {
      if (options.status !== undefined && !STATUSES.includes(options.status)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
      const page = await approvals.list(options.tenant, OPERATOR, { status: options.status as never }, 0, 500);
      return { ...page, items: page.items.map(({ id, title, status, quorum, decisions, expires_at }) => ({ id, title, status, quorum, decisions: decisions.length, expires_at })) };
    },
  }),
  command({
    name: 'approvals show',
    description: 'Show an approval case',
    positionals: ['id'],
    options: { tenant },
    run: ({ approvals }, { positionals, options }) => approvals.get(options.tenant, OPERATOR, positionals[0]),
  }),
  command({
    name: 'approvals approve',
    description: 'Approve a case as the approver named with --as',
    positionals: ['id'],
    options: decideOptions,
    run: ({ approvals }, { positionals, options }) => approvals.decideAs(options.tenant, options.as, positionals[0], 'approve', options.comment),
  }),
  command({
    name: 'approvals reject',
    description: 'Reject a case as the approver named with --as',
    positionals: ['id'],
    options: decideOptions,
    run: ({ approvals }, { positionals, options }) => approvals.decideAs(options.tenant, options.as, positionals[0], 'reject', options.comment),
  }),
]);

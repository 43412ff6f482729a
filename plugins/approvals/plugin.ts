// Approvals: human gates in workflows (the APPROVAL step) and escalation by
// agents (request_approval), with quorum, role-based approvers, one-time
// decision links, expiry, REST, GraphQL and CLI. Registration only.
import { coreOf, definePlugin, perMinute } from 'agent-platform/sdk';
import type {} from '../chat/api.ts';
import type {} from '../mail/api.ts';
import { EXPIRE_TASK, MAIL_TASK, NOTIFY_TASK } from './services/cases.ts';
import { EVENT_TYPES } from './event-types.ts';
import { requestApprovalFunction } from './functions.ts';
import { resolvers, typeDefs } from './graphql.ts';
import { optionsSchema, type ApprovalsOptions } from './options.ts';
import { approvalsRoutes } from './routes/approvals.ts';
import { createServices } from './services.ts';
import { expireTask } from './tasks/approvals.expire.ts';
import { mailTask } from './tasks/approvals.mail.ts';
import { notifyTask } from './tasks/approvals.notify.ts';
import { requestApprovalTool, workflowGate, type Peers } from './peers/waiters.ts';

export { optionsSchema };
export { cli } from './cli.ts';

export const plugin = definePlugin({
  name: 'approvals',
  version: '0.1.0',
  dependencies: ['tenancy'],
  // A workflow gate and a chat suspending tool are added when the manifest
  // loads them; approvers are e-mailed through the mail plugin's outbox when it is loaded.
  optionalDependencies: ['workflows', 'chat', 'mail'],
  register(server, options: ApprovalsOptions, deps) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const { cases, approvals, live, api, approverMail } = createServices(core, options, () => deps.mail);
    const peers: Peers = { workflows: () => deps.workflows, chat: () => deps.chat };

    core.jobs.defineTask(EXPIRE_TASK, expireTask(core, cases));
    core.jobs.defineTask(NOTIFY_TASK, notifyTask(core, peers));
    core.jobs.defineTask(MAIL_TASK, mailTask(approverMail));
    core.functions.register('request_approval', requestApprovalFunction(cases, approvals));
    server.route(approvalsRoutes(approvals, core.rateLimits.limiter('approvals.links', perMinute(options.linkRateLimitPerMinute, () => 'Too many requests to decision links; retry later'))));
    core.graphql.extend({ typeDefs, resolvers: resolvers(approvals, live) });
    deps.workflows?.registerGate('approval', workflowGate(cases));
    if (core.extensions.has('chat.suspending-tools')) {
      core.extensions.contribute('chat.suspending-tools', { name: 'request_approval', tool: requestApprovalTool(cases) });
    }
    server.ext('onPreStop', () => live.close());
    server.expose('api', api);
  },
});

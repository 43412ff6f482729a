// Approvals: human gates in workflows (the APPROVAL step) and escalation by
// agents (request_approval), with quorum, role-based approvers, one-time
// decision links, expiry, REST, GraphQL and CLI. Registration only.
import { coreOf, definePlugin, perMinute, RateLimiter } from 'agent-platform/sdk';
import { EXPIRE_TASK, NOTIFY_TASK } from './services/cases.ts';
import { EVENT_TYPES } from './event-types.ts';
import { requestApprovalFunction } from './functions.ts';
import { resolvers, typeDefs } from './graphql.ts';
import { optionsSchema, type ApprovalsOptions } from './options.ts';
import { approvalsRoutes } from './routes/approvals.ts';
import { createServices } from './services.ts';
import { expireTask } from './tasks/approvals.expire.ts';
import { notifyTask } from './tasks/approvals.notify.ts';
import { requestApprovalTool, workflowGate, type Peers } from './peers/waiters.ts';

export { optionsSchema };
export { cli } from './cli.ts';

export const plugin = definePlugin<ApprovalsOptions>({
  name: 'approvals',
  version: '0.1.0',
  // Workflows and chat are optional: a gate and a suspending tool are
  // registered with them when the manifest loads them.
  dependencies: ['tenancy'],
  register(server, options) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const { cases, approvals, live, api } = createServices(core, options);
    const peers: Peers = { workflows: () => server.plugins.workflows?.api, chat: () => server.plugins.chat?.api };

    core.jobs.defineTask(EXPIRE_TASK, expireTask(core, cases));
    core.jobs.defineTask(NOTIFY_TASK, notifyTask(core, peers));
    core.functions.register('request_approval', requestApprovalFunction(cases, approvals));
    server.route(approvalsRoutes(approvals, new RateLimiter(perMinute(options.linkRateLimitPerMinute, () => 'Too many requests to decision links; retry later'))));
    core.graphql.extend({ typeDefs, resolvers: resolvers(approvals, live) });
    // The other plugins may register after this one: their extension points are used once all are registered.
    server.ext('onPreStart', () => {
      peers.workflows()?.registerGate('approval', workflowGate(cases));
      peers.chat()?.registerSuspendingTool('request_approval', requestApprovalTool(cases));
    });
    server.ext('onPreStop', () => live.close());
    server.expose('api', api);
  },
});

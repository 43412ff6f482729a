// Chat and agents: agent definitions, sessions and messages, the SSE chat
// turn (capability keys, widgets, tools, ask_user, cancel, resume), feedback,
// the operators' reads of the tenant's conversations, GraphQL (sessions,
// messages, their feedback and citations).
// Registration only: the logic is in services/, sessions/ and turn/.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import type {} from '../citations/api.ts';
import type {} from '../console/api.ts';
import { EVENT_TYPES } from './event-types.ts';
import { chatGraphql } from './graphql.ts';
import { optionsSchema, secrets, type ChatOptions } from './options.ts';
import { agentRoutes } from './routes/agents.ts';
import { chatRoutes } from './routes/chat.ts';
import { conversationRoutes } from './routes/conversations.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { StreamSlots } from './services/stream-slots.ts';
import { createServices } from './services.ts';
import { createReads } from './services/reads.ts';
import { sessionsStore } from './store/sessions.ts';
import { askUserTimeoutTask } from './tasks/chat.ask_user_timeout.ts';
import { SWEEP_CRON, SWEEP_TASK, sweepHandler } from './tasks/chat.sweep.ts';
import { askUserFunction } from './tools/ask-user.ts';
import { ASK_USER_TIMEOUT_TASK } from './turn/runtime.ts';

export { optionsSchema, secrets };
export { cli } from './cli.ts';

export const plugin = definePlugin({
  name: 'chat',
  version: '0.1.0',
  // Events go through the core hub; ingestion, citations and imported
  // functions are used when present (the optional dependencies, the registry).
  dependencies: ['tenancy'],
  optionalDependencies: ['ingestion', 'citations'],
  extensionPoints: { 'chat.suspending-tools': 'A platform function that suspends a chat turn until the plugin resumes it (name, tool: suspend, release)' },
  async register(server, given: Partial<ChatOptions>, deps) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const { options, limits, emit, writer, runs, agents, sessions, conversations, turns, lifecycle, api } = createServices(core, given, {
      ingestion: () => deps.ingestion,
      citations: () => deps.citations,
    });
    core.extensions.consume('chat.suspending-tools', ({ name, tool }) => lifecycle.registerSuspendingTool(name, tool));
    // The chat citation status answers an end user only in a session it owns.
    if (core.extensions.has('citations.context-owners')) {
      core.extensions.contribute('citations.context-owners', {
        type: 'chat_session',
        ownerKey: async (tenantId, sessionId) => (await sessions.sessionOwner(tenantId, sessionId))?.owner_key ?? null,
      });
    }

    // The console's Overview counts the chat sessions a tenant started this week.
    if (core.extensions.has('console.usage')) {
      core.extensions.contribute('console.usage', { key: 'chat_sessions', count: (tenantId, since) => core.withTenant(tenantId, (trx) => sessionsStore.createdSince(trx, since)) });
    }

    core.functions.register('ask_user', askUserFunction);
    server.route([...agentRoutes(agents), ...sessionRoutes(sessions), ...conversationRoutes(conversations), ...chatRoutes(sessions, turns, new StreamSlots(core.withTenant,
      { limit: limits.maxStreamsPerTenant, runnerId: runs.runnerId, staleSeconds: options.runnerStaleSeconds }, core.logger.child({ component: 'chat' })))]);
    // Sessions and messages in the graph (the caller's, and for admins the tenant's); a message's citations (and a citation's message) when citations is loaded.
    core.graphql.extend(chatGraphql(createReads(core), conversations, deps.citations));
    core.jobs.defineTask(ASK_USER_TIMEOUT_TASK, askUserTimeoutTask(() => turns));
    core.jobs.defineLongTask(SWEEP_TASK, sweepHandler(core, options, emit), { retryLimit: 1 });
    await core.jobs.schedule(SWEEP_TASK, SWEEP_TASK, SWEEP_CRON);

    server.ext('onPreStart', () => runs.start(options.cancelPollMs, Math.max(1000, (options.runnerStaleSeconds * 1000) / 3)));
    // Local turns end as interrupted (their frames and replies are written)
    // before the database goes away.
    server.ext('onPreStop', async () => {
      await runs.stop();
      await writer.stop();
    });
    server.expose('api', api);
  },
});

// Chat and agents: agent definitions, sessions and messages, the SSE chat
// turn (capability keys, widgets, tools, ask_user, cancel, resume), feedback.
// Registration only: the logic is in agents/, sessions/ and turn/.
import { randomUUID } from 'node:crypto';
import type { Server } from '@hapi/hapi';
import { coreOf } from '../../core/plugin-contract.ts';
import { createAgentsService, type AgentsService } from './agents/service.ts';
import { EVENT_TYPES } from './event-types.ts';
import { emitterOf } from './events.ts';
import { createOpenAiClient } from './model/openai-client.ts';
import { chatLimitsFrom, defaultOptions, modelSettingsFrom, optionsSchema, type ChatOptions } from './options.ts';
import { agentRoutes } from './routes/agents.ts';
import { chatRoutes } from './routes/chat.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { StreamSlots } from './routes/stream-slots.ts';
import { createSessionsService, type SessionsService } from './sessions/service.ts';
import { askUserTimeoutTask } from './tasks/chat.ask_user_timeout.ts';
import { SWEEP_CRON, SWEEP_TASK, sweepHandler } from './tasks/chat.sweep.ts';
import { askUserFunction } from './tools/ask-user.ts';
import { FrameWriter } from './turn/frame-writer.ts';
import { LocalRuns } from './turn/local-runs.ts';
import { ASK_USER_TIMEOUT_TASK, type Runtime } from './turn/runtime.ts';
import { createTurnsService, type TurnsService } from './turn/service.ts';

export { optionsSchema };
export { cli } from './cli.ts';

export interface ChatApi {
  agents: AgentsService;
  sessions: SessionsService;
  turns: TurnsService;
  /**
   * The owner of a chat session, null when the tenant has no such (active)
   * session: its bare subject (`sub`) and its owner key (`owner_key`: kind,
   * issuer, subject, and an API key's visitor; sessions/caller.ts ownerOf).
   * Used by integrations.
   */
  sessionOwner(tenantId: string, sessionId: string): Promise<{ sub: string; owner_key: string } | null>;
}

declare module '@hapi/hapi' {
  interface PluginProperties {
    chat: { api: ChatApi };
  }
}

export const plugin = {
  name: 'chat',
  version: '0.1.0',
  // Events go through the core hub; ingestion, citations and imported
  // functions are used when present (server.plugins.x?.api, the registry).
  dependencies: ['tenancy'],
  async register(server: Server, given: Partial<ChatOptions>) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const options: ChatOptions = { ...defaultOptions, ...given };
    const settings = modelSettingsFrom(core.config.env);
    const limits = chatLimitsFrom(core.config.env);
    const model = settings.baseUrl
      ? createOpenAiClient({
        baseUrl: settings.baseUrl, apiKey: settings.apiKey, attempts: options.modelAttempts,
        retryBaseMs: options.modelRetryBaseMs, idleTimeoutMs: options.modelIdleTimeoutMs,
      })
      : undefined;
    const emit = emitterOf(core);
    const writer = new FrameWriter(core.withTenant, options.frameFlushMs, core.logger);
    const runs = new LocalRuns(randomUUID(), core.db, core.withTenant, core.logger);
    const rt: Runtime = {
      core, options, limits, model, modelName: settings.model, emit, writer, runs,
      // Optional plugins: present only when the manifest loads them.
      ingestion: () => server.plugins.ingestion?.api,
      citations: () => server.plugins.citations?.api,
    };

    core.functions.register('ask_user', askUserFunction);
    const agents = createAgentsService(core, emit);
    let turns: TurnsService | undefined;
    const sessions = createSessionsService(core, {
      emit,
      stopActiveTurn: (tenantId, sessionId) => turns!.stopActive(tenantId, sessionId),
    });
    turns = createTurnsService(rt, sessions);

    server.route([...agentRoutes(agents), ...sessionRoutes(sessions), ...chatRoutes(sessions, turns, new StreamSlots(limits.maxStreamsPerTenant))]);
    core.jobs.defineTask(ASK_USER_TIMEOUT_TASK, askUserTimeoutTask(() => turns!));
    core.jobs.defineLongTask(SWEEP_TASK, sweepHandler(core, options, emit), { retryLimit: 1 });
    await core.jobs.schedule(SWEEP_TASK, SWEEP_TASK, SWEEP_CRON);

    server.ext('onPreStart', () => runs.start(options.cancelPollMs, Math.max(1000, (options.runnerStaleSeconds * 1000) / 3)));
    // Local turns end as interrupted (their frames and replies are written)
    // before the database goes away.
    server.ext('onPreStop', async () => {
      await runs.stop();
      await writer.stop();
    });
    const api: ChatApi = { agents, sessions, turns, sessionOwner: sessions.sessionOwner };
    server.expose('api', api);
  },
};

// The one factory of the chat plugin's services: its register builds them
// here from the core's services and the manifest's options (its CLI command
// is an HTTP client of the server and needs none). Ingestion and citations
// are used when the manifest loads them (their APIs, read per turn).
import { randomUUID } from 'node:crypto';
import type { CoreServices } from 'agent-platform/sdk';
import type { CitationsApi } from '../citations/api.ts';
import type { IngestionApi } from '../ingestion/api.ts';
import { createAgentsService } from './services/agents.ts';
import { createConversations } from './services/conversations.ts';
import type { ChatApi } from './api.ts';
import { emitterOf } from './events/emitter.ts';
import { createOpenAiClient } from './model/openai-client.ts';
import { chatLimitsOf, defaultOptions, modelSettingsOf, type ChatOptions } from './options.ts';
import { createSessionsService } from './services/sessions.ts';
import { FrameWriter } from './turn/frame-writer.ts';
import { TurnLifecycle } from './turn/lifecycle.ts';
import { LocalRuns } from './turn/local-runs.ts';
import type { Runtime } from './turn/runtime.ts';
import { ToolSpecs } from './turn/tool-specs.ts';
import { createTurnsService, type TurnsService } from './services/turns.ts';
import { askUserTool } from './tools/ask-user.ts';

export interface ChatPeers {
  ingestion(): IngestionApi | undefined;
  citations(): CitationsApi | undefined;
}

const noPeers: ChatPeers = { ingestion: () => undefined, citations: () => undefined };

export function createServices(core: CoreServices, given: Partial<ChatOptions>, peers: ChatPeers = noPeers) {
  const options: ChatOptions = { ...defaultOptions, ...given };
  const settings = modelSettingsOf(options, core.config.env);
  const limits = chatLimitsOf(options);
  const model = core.overrides.modelClient ?? (settings.baseUrl
    ? createOpenAiClient({
      baseUrl: settings.baseUrl, apiKey: settings.apiKey, attempts: options.modelAttempts,
      retryBaseMs: options.modelRetryBaseMs, idleTimeoutMs: options.modelIdleTimeoutMs,
    })
    : undefined);
  const emit = emitterOf(core);
  const writer = new FrameWriter(core.withTenant, options.frameFlushMs, core.logger);
  const runs = new LocalRuns(randomUUID(), core.db, core.withTenant, core.logger);
  const rt: Runtime = {
    core, options, limits, model, modelName: settings.model, emit, writer, runs, toolSpecs: new ToolSpecs(core.functions),
    ingestion: () => peers.ingestion(),
    citations: () => peers.citations(),
  };
  const agents = createAgentsService(core, emit);
  let turns: TurnsService | undefined;
  const sessions = createSessionsService(core, {
    emit,
    stopActiveTurn: (tenantId, sessionId) => turns!.stopActive(tenantId, sessionId),
  });
  const conversations = createConversations(core);
  const lifecycle = new TurnLifecycle(rt);
  lifecycle.registerSuspendingTool('ask_user', askUserTool(core.jobs, options.askUserTimeoutSeconds));
  turns = createTurnsService(rt, lifecycle, sessions);
  const api: ChatApi = {
    agents, sessions, turns, sessionOwner: sessions.sessionOwner,
    resumeTool: (tenantId, turnId, toolCallId, outcome) => lifecycle.resumeTool(tenantId, turnId, toolCallId, outcome),
  };
  return { options, limits, emit, writer, runs, agents, sessions, conversations, turns, lifecycle, api };
}

export type ChatServices = ReturnType<typeof createServices>;

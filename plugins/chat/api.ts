// What the chat plugin exposes to other plugins (server.plugins.chat.api);
// they import only these types. Also the service it lets tests and
// embeddings replace: the model client (startTestPlatform's
// services.modelClient, read from core.overrides).
import type { ModelClient } from './model/types.ts';
import type { AgentsService } from './agents/service.ts';
import type { SessionsService } from './sessions/service.ts';
import type { TurnsService } from './turn/service.ts';

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

export type { ModelClient };

declare module '@hapi/hapi' {
  interface PluginProperties {
    chat: { api: ChatApi };
  }
}

declare module 'agent-platform/sdk' {
  interface ServiceOverrides {
    /** The LLM client of every turn instead of the OpenAI-compatible one LLM_BASE_URL configures. */
    modelClient?: ModelClient;
  }
}

// What the integrations plugin exposes to other plugins
// (server.plugins.integrations.api), and what it asks of the chat plugin.
//
// The chat plugin stores a session-level credential for its sessions through
// setSessionCredential (the owner check is then the chat plugin's). In turn,
// when the chat plugin is loaded and exposes `sessionOwner`, the REST routes
// /api/sessions/{session_id}/credentials ask it who owns a session:
//
//   server.plugins.chat.api.sessionOwner(tenantId, sessionId): Promise<{ sub: string } | null>
//
// (null: no such session in the tenant). Without it, a session's credentials
// belong to the principal that stored the first one.
import type { CredentialInput } from './credentials-service.ts';

export interface StoredCredential {
  service_name: string;
  header: string | null;
  value_set: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface IntegrationsApi {
  /** Stores (or replaces) a session-level credential; `ownerSub` must own the session. */
  setSessionCredential(
    tenantId: string, sessionId: string, ownerSub: string, input: CredentialInput & { ttl_seconds?: number },
  ): Promise<{ created: boolean; credential: StoredCredential }>;
  /** The session's credentials, without values. */
  listSessionCredentials(tenantId: string, sessionId: string, ownerSub: string): Promise<StoredCredential[]>;
}

/** The part of the chat plugin's API this plugin uses, when present. */
export interface ChatSessionOwnership {
  sessionOwner?(tenantId: string, sessionId: string): Promise<{ sub: string } | null>;
}

declare module '@hapi/hapi' {
  interface PluginProperties {
    integrations: { api: IntegrationsApi };
  }
}

// What the chat plugin exposes to other plugins (its api, the `chat`
// dependency); they import only these types. Also the service it lets tests and
// embeddings replace: the model client (startTestPlatform's
// services.modelClient, read from core.overrides).
//
// The extension point for tools that wait for a person (suspending tools),
// `chat.suspending-tools`: a plugin contributes one under the name of its
// platform function; when an
// agent granted that function calls it in a turn whose surface can wait (the
// `ask_user` capability key), the turn suspends like ask_user instead of
// calling the function, and the plugin later hands the turn its result with
// resumeTool. The approvals plugin's request_approval is one.
import type { Principal, TenantTransaction } from 'agent-platform/sdk';
import type { ModelClient } from './model/types.ts';
import type { AgentsService } from './services/agents.ts';
import type { SessionsService } from './services/sessions.ts';
import type { TurnsService } from './services/turns.ts';

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
  /**
   * Hands a suspended turn the result of the tool call it waits for: the turn
   * goes on in this process (its readers follow with GET /api/chat/{id}/stream).
   * False when the turn does not wait for that call (any more): answered,
   * cancelled, or never suspended on it. Safe to call twice.
   */
  resumeTool(tenantId: string, turnId: string, toolCallId: string, outcome: ToolOutcome): Promise<boolean>;
}

/** A tool call a turn suspends on. */
export interface SuspendedCall {
  tenantId: string;
  sessionId: string;
  turnId: string;
  toolCallId: string;
  /** The function called (the suspending tool's name). */
  name: string;
  /** The chat's caller, on whose behalf the agent acts (claims only). */
  principal: Principal;
  clientId: number;
}

/** Fields a suspending tool adds to its `tool_status` frames. */
export interface ToolStatusDetails {
  /** ask_user: the question and suggested answers. */
  question?: string;
  options?: string[];
  /** request_approval: the approval case, and how it was decided. */
  case_id?: string;
  decision?: string;
}

export interface Suspension {
  /** The `tool_status` frame's status while the turn waits. */
  status: 'awaiting_input' | 'awaiting_approval';
  details: ToolStatusDetails;
}

export interface SuspendingTool {
  /** Whether these arguments suspend the turn; when false the call runs as any other (default: always). */
  accepts?(args: Record<string, unknown>): boolean;
  /**
   * Called in the transaction that suspends the turn (its row locked), so
   * what it writes commits with the suspension and nothing can resume the
   * turn before it waits. A 4xx error (Boom) thrown before any statement is
   * the tool call's failed result: the turn goes on without suspending.
   */
  suspend(trx: TenantTransaction, call: SuspendedCall, args: Record<string, unknown>): Promise<Suspension>;
  /**
   * The wait is over (resumed with a result, or the turn ended while it
   * waited: cancelled, its session deleted), in that transaction: release
   * what it holds (ask_user: its timer; request_approval: cancel the case if
   * still pending).
   */
  release?(trx: TenantTransaction, call: SuspendedCall): Promise<void>;
}

/** A contribution to `chat.suspending-tools`: the platform function `name` suspends a chat turn (see above). */
export interface SuspendingToolContribution {
  name: string;
  tool: SuspendingTool;
}

/** A suspended tool call's result, as resumeTool hands it over. */
export interface ToolOutcome {
  /** What the agent gets as the tool's result. */
  result: unknown;
  /** The tool's record in the reply's metadata and the `tool_status` frame that resumes the turn. */
  status: 'answered' | 'timed_out' | 'completed';
  details?: ToolStatusDetails;
}

export type { ModelClient };

declare module '@hapi/hapi' {
  interface PluginProperties {
    chat: { api: ChatApi };
  }
}

declare module 'agent-platform/sdk' {
  interface ExtensionPoints {
    /** A suspending tool; a name contributed twice stops the boot. */
    'chat.suspending-tools': SuspendingToolContribution;
  }

  interface ServiceOverrides {
    /** The LLM client of every turn instead of the OpenAI-compatible one LLM_BASE_URL configures. */
    modelClient?: ModelClient;
  }
}

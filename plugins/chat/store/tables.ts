// kysely types of the chat plugin's tables (sql/0001_init.sql, sql/0002_session_owner.sql), added to the
// core's Database interface by module augmentation.
import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface AgentModelSettings {
  name?: string;
  temperature?: number;
  top_p?: number;
  max_output_tokens?: number;
}

export interface ChatAgentsTable {
  tenant_id: string;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  instructions: ColumnType<string, string | undefined, string>;
  model: ColumnType<AgentModelSettings, string | undefined, string>;
  functions: ColumnType<string[], string[] | undefined, string[]>;
  max_iterations: ColumnType<number, number | undefined, number>;
  token_budget: ColumnType<number, number | undefined, number>;
  emit_iteration_events: ColumnType<boolean, boolean | undefined, boolean>;
  version: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ChatClientAgentsTable {
  tenant_id: string;
  client_id: number;
  agent_name: string;
  updated_at: UpdatedAt;
}

export interface ChatSessionsTable {
  id: Generated<string>;
  tenant_id: string;
  client_id: number;
  /** The principal's bare subject. */
  owner_sub: string;
  /** Who owns the session: kind, issuer, subject (and visitor of an API key); sessions/caller.ts ownerOf. */
  owner_key: string;
  agent_name: string | null;
  title: ColumnType<string, string | undefined, string>;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  last_active: UpdatedAt;
  deleted_at: NullableTime;
}

export interface ChatMessagesTable {
  id: Generated<number>;
  tenant_id: string;
  session_id: string;
  turn_id: string | null;
  role: 'user' | 'assistant';
  content: string;
  tool_metadata: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: CreatedAt;
}

export interface ChatFeedbackTable {
  tenant_id: string;
  message_id: number;
  session_id: string;
  rater_sub: string;
  rating: number;
  comment: ColumnType<string, string | undefined, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type TurnStatus = 'running' | 'suspended' | 'cancelling' | 'completed' | 'stopped' | 'cancelled' | 'failed';
export type TurnPhase = 'idle' | 'model' | 'tool';
export type CancelOutcome = 'stopped' | 'cancelling';

export interface ChatTurnsTable {
  id: string;
  tenant_id: string;
  session_id: string;
  status: TurnStatus;
  phase: ColumnType<TurnPhase, TurnPhase | undefined, TurnPhase>;
  cancel_outcome: ColumnType<CancelOutcome | null, CancelOutcome | null | undefined, CancelOutcome | null>;
  runner_id: string | null;
  user_message_id: number;
  assistant_message_id: ColumnType<number | null, number | null | undefined, number | null>;
  pending_tool_call_id: ColumnType<string | null, string | null | undefined, string | null>;
  state: Json<unknown>;
  last_seq: ColumnType<number, number | undefined, number>;
  error: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  finished_at: NullableTime;
}

export interface ChatTurnFramesTable {
  tenant_id: string;
  turn_id: string;
  first_seq: number;
  last_seq: number;
  /** A JSON array of frames, as text. */
  frames: string;
  created_at: CreatedAt;
}

export interface ChatRunnersTable {
  id: string;
  started_at: CreatedAt;
  heartbeat_at: UpdatedAt;
}

export interface ChatOpenStreamsTable {
  id: string;
  tenant_id: string;
  runner_id: string;
  opened_at: CreatedAt;
}

declare module 'agent-platform/sdk' {
  interface Database {
    chat_agents: ChatAgentsTable;
    chat_client_agents: ChatClientAgentsTable;
    chat_sessions: ChatSessionsTable;
    chat_messages: ChatMessagesTable;
    chat_feedback: ChatFeedbackTable;
    chat_turns: ChatTurnsTable;
    chat_turn_frames: ChatTurnFramesTable;
    chat_runners: ChatRunnersTable;
    chat_open_streams: ChatOpenStreamsTable;
  }
}

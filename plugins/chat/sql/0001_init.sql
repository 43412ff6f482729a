-- Chat plugin: agent definitions, each client's default agent, chat sessions,
-- their messages and feedback, turns (one question and its answer, with the
-- state an ask_user suspension needs) and the frames a turn streamed (kept so
-- that a dropped client resumes). Every table but chat_runners is tenant-owned.

CREATE TABLE chat_agents (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,63}$'),
  description text NOT NULL DEFAULT '',
  instructions text NOT NULL DEFAULT '',
  -- {name?, temperature?, top_p?, max_output_tokens?}: overrides of the deployment's model settings
  model jsonb NOT NULL DEFAULT '{}',
  functions text[] NOT NULL DEFAULT '{}',
  max_iterations integer NOT NULL DEFAULT 10 CHECK (max_iterations BETWEEN 1 AND 100),
  token_budget integer NOT NULL DEFAULT 100000 CHECK (token_budget > 0),
  emit_iteration_events boolean NOT NULL DEFAULT false,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, name)
);
SELECT platform_enable_tenant_rls('chat_agents');

-- A client's default agent. The foreign key refuses deleting an agent that is
-- some client's default (the service answers 409 AGENT_IN_USE).
CREATE TABLE chat_client_agents (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  client_id bigint PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
  agent_name text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, agent_name) REFERENCES chat_agents (tenant_id, name)
);
CREATE INDEX chat_client_agents_agent_idx ON chat_client_agents (tenant_id, agent_name);
SELECT platform_enable_tenant_rls('chat_client_agents');

-- A conversation of one principal (owner_sub) on one client. Deleting is soft.
CREATE TABLE chat_sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  owner_sub text NOT NULL,
  -- null: the client's default agent at the time of each turn
  agent_name text,
  title text NOT NULL DEFAULT '',
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_active timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX chat_sessions_owner_idx ON chat_sessions (tenant_id, client_id, owner_sub, last_active DESC) WHERE is_active;
SELECT platform_enable_tenant_rls('chat_sessions');

CREATE TABLE chat_messages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  session_id uuid NOT NULL REFERENCES chat_sessions (id) ON DELETE CASCADE,
  turn_id uuid,
  role text NOT NULL CHECK (role IN ('user', 'assistant')),
  content text NOT NULL,
  tool_metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_messages_session_idx ON chat_messages (session_id, id);
SELECT platform_enable_tenant_rls('chat_messages');

-- One rating per assistant message (a second one replaces it).
CREATE TABLE chat_feedback (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  message_id bigint PRIMARY KEY REFERENCES chat_messages (id) ON DELETE CASCADE,
  session_id uuid NOT NULL REFERENCES chat_sessions (id) ON DELETE CASCADE,
  rater_sub text NOT NULL,
  rating integer NOT NULL,
  comment text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
SELECT platform_enable_tenant_rls('chat_feedback');

-- A turn: one question and the agent loop that answers it.
--   running     a process (runner_id) runs the loop; phase says whether a model
--               request (model) or a tool (tool) is in flight
--   suspended   waiting for an ask_user answer; `state` holds everything the
--               loop needs to go on in any process (no runner)
--   cancelling  a cancel landed; the runner finishes it (cancel_outcome says
--               whether it was answered `stopped` or `cancelling`)
--   completed, stopped, cancelled, failed: ended
CREATE TABLE chat_turns (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  session_id uuid NOT NULL REFERENCES chat_sessions (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('running', 'suspended', 'cancelling', 'completed', 'stopped', 'cancelled', 'failed')),
  phase text NOT NULL DEFAULT 'idle' CHECK (phase IN ('idle', 'model', 'tool')),
  cancel_outcome text CHECK (cancel_outcome IN ('stopped', 'cancelling')),
  runner_id uuid,
  user_message_id bigint NOT NULL,
  assistant_message_id bigint,
  pending_tool_call_id text,
  state jsonb NOT NULL,
  -- the seq of the last frame written when the turn left its runner (suspend, end)
  last_seq integer NOT NULL DEFAULT 0,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
-- At most one unfinished turn per session, whatever the number of processes.
CREATE UNIQUE INDEX chat_turns_one_active ON chat_turns (session_id) WHERE status IN ('running', 'suspended', 'cancelling');
CREATE INDEX chat_turns_session_idx ON chat_turns (session_id, created_at DESC);
CREATE INDEX chat_turns_unfinished_idx ON chat_turns (tenant_id, runner_id) WHERE status IN ('running', 'cancelling');
CREATE INDEX chat_turns_finished_idx ON chat_turns (tenant_id, finished_at) WHERE finished_at IS NOT NULL;
SELECT platform_enable_tenant_rls('chat_turns');

-- The frames of a turn, written by its runner in small batches (one row per
-- turn per flush: seq first_seq..last_seq, frames a JSON array in seq order).
-- Kept as text, not jsonb: written at token rate, read back only to replay,
-- never queried inside; jsonb would make Postgres parse every token.
CREATE TABLE chat_turn_frames (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  turn_id uuid NOT NULL REFERENCES chat_turns (id) ON DELETE CASCADE,
  first_seq integer NOT NULL,
  last_seq integer NOT NULL,
  frames text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (turn_id, first_seq),
  CHECK (last_seq >= first_seq)
);
SELECT platform_enable_tenant_rls('chat_turn_frames');

-- The server processes that run turns, with a heartbeat: a running turn whose
-- runner is gone or silent is finished as interrupted by whoever notices.
-- Holds process ids only (no tenant data), so it is global.
CREATE TABLE chat_runners (
  id uuid PRIMARY KEY,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now()
);

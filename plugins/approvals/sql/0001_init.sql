-- Approvals plugin: approval cases (a person's decision a workflow or an agent
-- waits for) and the decision links used once.
CREATE TABLE approval_cases (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 500),
  description text NOT NULL DEFAULT '',
  payload jsonb NOT NULL DEFAULT '{}',
  -- {type: workflow, execution_id, step_id, seq} | {type: agent, session_id, turn_id, tool_call_id} | {type: api}
  source jsonb NOT NULL,
  source_type text NOT NULL CHECK (source_type IN ('workflow', 'agent', 'api')),
  -- {roles: [...], users: [sub, ...]}; the two lists are copied into arrays for the "cases I may decide" query.
  approvers jsonb NOT NULL,
  approver_roles text[] NOT NULL DEFAULT '{}',
  approver_users text[] NOT NULL DEFAULT '{}',
  quorum integer NOT NULL DEFAULT 1 CHECK (quorum BETWEEN 1 AND 100),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'cancelled')),
  -- [{by, decision: approve|reject, comment, decided_at, via: api|link|cli}], in decision order.
  decisions jsonb NOT NULL DEFAULT '[]',
  requested_by text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz
);
CREATE INDEX approval_cases_recent_idx ON approval_cases (tenant_id, created_at DESC, id DESC);
CREATE INDEX approval_cases_status_idx ON approval_cases (tenant_id, status, created_at DESC);
CREATE INDEX approval_cases_users_idx ON approval_cases USING gin (approver_users);
CREATE INDEX approval_cases_roles_idx ON approval_cases USING gin (approver_roles);
-- The agent escalation a turn waits on (released when the turn is cancelled).
CREATE INDEX approval_cases_turn_idx ON approval_cases (tenant_id, (source->>'turn_id')) WHERE source_type = 'agent';
CREATE INDEX approval_cases_execution_idx ON approval_cases (tenant_id, (source->>'execution_id')) WHERE source_type = 'workflow';
SELECT platform_enable_tenant_rls('approval_cases');

-- A decision link is used once: one row per (case, approver) whose link decided.
CREATE TABLE approval_link_uses (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  case_id uuid NOT NULL REFERENCES approval_cases (id) ON DELETE CASCADE,
  approver text NOT NULL,
  used_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (case_id, approver)
);
SELECT platform_enable_tenant_rls('approval_link_uses');

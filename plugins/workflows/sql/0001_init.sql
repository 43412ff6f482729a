-- Workflows plugin: definitions and their executions.
CREATE TABLE workflow_definitions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,127}$'),
  description text NOT NULL DEFAULT '',
  steps jsonb NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, name)
);
SELECT platform_enable_tenant_rls('workflow_definitions');

-- An execution keeps a snapshot of the definition it started with, so editing
-- or deleting a definition never changes a run in flight. `state` is the
-- engine's ExecutionState (null until the start job has run); `status` mirrors
-- state.status for filtering. `step_seq` counts the steps handed to jobs: a
-- step or timeout job carries the value it was enqueued with and is ignored
-- when it no longer matches (a duplicate or late job).
CREATE TABLE workflow_executions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  workflow_name text NOT NULL,
  workflow_version integer NOT NULL,
  definition jsonb NOT NULL,
  inputs jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'running'
    CHECK (status IN ('running', 'waiting', 'completed', 'failed', 'cancelled')),
  state jsonb,
  step_seq integer NOT NULL DEFAULT 0,
  origin jsonb NOT NULL DEFAULT '{"type": "api"}',
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX workflow_executions_recent_idx ON workflow_executions (tenant_id, created_at DESC, id DESC);
CREATE INDEX workflow_executions_status_idx ON workflow_executions (tenant_id, status, created_at DESC);
CREATE INDEX workflow_executions_workflow_idx ON workflow_executions (tenant_id, workflow_name, created_at DESC);
SELECT platform_enable_tenant_rls('workflow_executions');

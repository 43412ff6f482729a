-- Transforms of the data-pipeline service (spec document 3, 2.1, 3, 4.3): SQL
-- transforms over datasets, their runs with logs, artifacts, schedules, and
-- generic run records reported by external orchestrators. Tenant tables
-- under forced row-level security; the built-in SQL library and transform
-- patterns are global (loaded from code, reloaded by /sync).

CREATE TABLE transforms (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name ~ '^[A-Za-z0-9_-]{1,100}$'),
  description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 2000),
  sql text NOT NULL,
  -- Named parameters in declaration order ($N is the Nth): json, not jsonb, keeps the order.
  parameters json NOT NULL DEFAULT '{}',
  output_dataset text NOT NULL,
  materialization text NOT NULL DEFAULT 'table' CHECK (materialization IN ('table', 'incremental')),
  unique_key text[] NOT NULL DEFAULT '{}',
  -- active, or archived (kept with its history, never run).
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
  -- Inferred by hydrate (and on create and patch): lineage and output schema.
  inputs text[] NOT NULL DEFAULT '{}',
  columns jsonb NOT NULL DEFAULT '[]',
  analysis_errors jsonb NOT NULL DEFAULT '[]',
  hydrated_at timestamptz,
  -- The library entry or pattern it was made from, if any.
  origin jsonb,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, name)
);
CREATE INDEX transforms_output ON transforms (tenant_id, output_dataset);
SELECT platform_enable_tenant_rls('transforms');

-- One execution of a transform. Deleted with its transform (hard delete
-- deletes the execution records it triggered); archive keeps them.
CREATE TABLE transform_runs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  transform_id uuid NOT NULL REFERENCES transforms (id) ON DELETE CASCADE,
  -- The orchestrator's run id (/execute); grouped jobs share one across transforms.
  orchestrator_run_id text,
  pipeline_run_id text,
  trigger text NOT NULL CHECK (trigger IN ('manual', 'schedule', 'pipeline', 'execute', 'materialize')),
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  parameters jsonb NOT NULL DEFAULT '{}',
  output_dataset text NOT NULL,
  compiled_sql text,
  rows bigint,
  snapshot_id bigint,
  columns jsonb,
  error jsonb,
  logs jsonb NOT NULL DEFAULT '[]',
  -- The backend running its statement, and the session tag a cancel checks (pids are reused).
  backend_pid integer,
  session_tag text,
  cancel_requested boolean NOT NULL DEFAULT false,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX transform_runs_transform ON transform_runs (tenant_id, transform_id, id DESC);
CREATE UNIQUE INDEX transform_runs_orchestrator ON transform_runs (tenant_id, orchestrator_run_id, transform_id) WHERE orchestrator_run_id IS NOT NULL;
SELECT platform_enable_tenant_rls('transform_runs');

-- Generic run records of external orchestrators reporting in (POST /runs).
CREATE TABLE transform_generic_runs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  triggering_transform_id uuid REFERENCES transforms (id) ON DELETE CASCADE,
  orchestrator_run_id text,
  job_name text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'succeeded', 'failed', 'cancelled')),
  message text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX transform_generic_runs_tenant ON transform_generic_runs (tenant_id, id DESC);
SELECT platform_enable_tenant_rls('transform_generic_runs');

-- Outputs of transform runs: compiled SQL, logs, output summary.
CREATE TABLE transform_artifacts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  transform_id uuid NOT NULL REFERENCES transforms (id) ON DELETE CASCADE,
  run_id bigint NOT NULL REFERENCES transform_runs (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('compiled_sql', 'logs', 'output_summary')),
  name text NOT NULL,
  content_type text NOT NULL,
  content text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transform_artifacts_run ON transform_artifacts (tenant_id, run_id);
CREATE INDEX transform_artifacts_tenant ON transform_artifacts (tenant_id, created_at DESC, id);
SELECT platform_enable_tenant_rls('transform_artifacts');

CREATE TABLE transform_schedules (
  transform_id uuid PRIMARY KEY REFERENCES transforms (id) ON DELETE CASCADE,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  cron text NOT NULL,
  timezone text NOT NULL DEFAULT 'UTC',
  missed_run_policy text NOT NULL DEFAULT 'skip' CHECK (missed_run_policy IN ('skip', 'catch_up_once')),
  paused boolean NOT NULL DEFAULT false,
  next_run_at timestamptz,
  last_run_at timestamptz,
  last_outcome text,
  last_run_id bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transform_schedules_tenant ON transform_schedules (tenant_id, transform_id);
SELECT platform_enable_tenant_rls('transform_schedules');

-- Built-in catalogs (global, read by every tenant through the platform's connection).
CREATE TABLE transform_sql_library (
  id text PRIMARY KEY,
  name text NOT NULL,
  description text NOT NULL,
  category text NOT NULL,
  sql_types text[] NOT NULL,
  sql text NOT NULL,
  parameters json NOT NULL DEFAULT '{}',
  checksum text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE transform_patterns (
  id text PRIMARY KEY,
  name text NOT NULL,
  description text NOT NULL,
  category text NOT NULL,
  parameters_schema jsonb NOT NULL,
  checksum text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

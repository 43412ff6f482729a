-- Pipelines of the data-pipeline service (spec document 3, 3, 4.4, 4.6):
-- pipelines (a DAG of steps), their immutable versions, their runs (sandbox
-- and production) with one row per step, the snapshot sensor's cursor and the
-- orchestrator workflows of /temporal/workflows. Every table is a tenant
-- table under forced row-level security.

CREATE TABLE pipelines (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name ~ '^[A-Za-z0-9_]{1,63}$'),
  description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 2000),
  -- The current (editable) definition: the steps of the DAG.
  steps jsonb NOT NULL DEFAULT '[]',
  schedule_cron text,
  schedule_timezone text NOT NULL DEFAULT 'UTC',
  -- Run when an input dataset gets a new snapshot (dataset.snapshot_created).
  sensor boolean NOT NULL DEFAULT false,
  -- draft: saved, DAG not (or no longer) validated; validated: the current
  -- definition's DAG is valid; active: runs (its active_version) on its
  -- schedule and sensor; paused: activated once, not running.
  state text NOT NULL DEFAULT 'draft' CHECK (state IN ('draft', 'validated', 'active', 'paused')),
  active_version integer,
  -- When it was last activated: the sensor ignores snapshots made before.
  activated_at timestamptz,
  next_run_at timestamptz,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, name)
);
SELECT platform_enable_tenant_rls('pipelines');

-- Immutable snapshots of a pipeline's definition (no UPDATE is ever issued).
CREATE TABLE pipeline_versions (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  pipeline_id uuid NOT NULL REFERENCES pipelines (id) ON DELETE CASCADE,
  version integer NOT NULL CHECK (version >= 1),
  steps jsonb NOT NULL,
  -- sha256 of the canonical steps: an unchanged definition is not versioned twice.
  fingerprint text NOT NULL,
  note text NOT NULL DEFAULT '',
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pipeline_id, version)
);
CREATE INDEX pipeline_versions_tenant ON pipeline_versions (tenant_id);
SELECT platform_enable_tenant_rls('pipeline_versions');

-- A run of one version: a sandbox run (writes the sandbox namespace only) or
-- a production run (each step's output a derived snapshot).
CREATE TABLE pipeline_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  pipeline_id uuid NOT NULL REFERENCES pipelines (id) ON DELETE CASCADE,
  version integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('sandbox', 'production')),
  trigger text NOT NULL CHECK (trigger IN ('manual', 'schedule', 'sensor', 'orchestrator')),
  -- e.g. the dataset and snapshot that fired the sensor, the scheduled time.
  trigger_detail jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed', 'cancelled')),
  error text,
  created_by text,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX pipeline_runs_pipeline ON pipeline_runs (tenant_id, pipeline_id, started_at DESC);
-- One live production run per pipeline: a sensor firing during a run does not stack runs.
CREATE UNIQUE INDEX pipeline_runs_one_live ON pipeline_runs (pipeline_id) WHERE kind = 'production' AND status = 'running';
SELECT platform_enable_tenant_rls('pipeline_runs');

-- A step of a run: its state commits with its result (and with the jobs of
-- the steps it unblocks), so a crash neither loses nor repeats a step.
CREATE TABLE pipeline_run_steps (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  run_id uuid NOT NULL REFERENCES pipeline_runs (id) ON DELETE CASCADE,
  step_id text NOT NULL,
  position integer NOT NULL,
  depends_on text[] NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'succeeded', 'failed', 'skipped', 'cancelled')),
  output_dataset text,
  snapshot_id bigint,
  rows bigint,
  columns jsonb,
  sample_rows jsonb,
  error text,
  sql_ms integer,
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (run_id, step_id)
);
CREATE INDEX pipeline_run_steps_tenant ON pipeline_run_steps (tenant_id);
SELECT platform_enable_tenant_rls('pipeline_run_steps');

-- How far the snapshot sensor has read the tenant's event stream.
CREATE TABLE pipeline_sensor_cursors (
  tenant_id text PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  last_seq bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
SELECT platform_enable_tenant_rls('pipeline_sensor_cursors');

-- Orchestrator workflows started through /temporal/workflows that are not
-- pipeline runs (schema matches, transform runs): their input and result.
CREATE TABLE pipeline_workflows (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('schema-match', 'transform')),
  status text NOT NULL CHECK (status IN ('running', 'succeeded', 'failed', 'cancelled')),
  input jsonb NOT NULL DEFAULT '{}',
  result jsonb,
  error text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX pipeline_workflows_tenant ON pipeline_workflows (tenant_id, created_at DESC);
SELECT platform_enable_tenant_rls('pipeline_workflows');

-- Discovery workflows and sync runs of sources (spec document 3, 4.2). A sync
-- run is a pg-boss job (workflow_id); its per-stream rows, counters and the
-- streams' cursors commit in the same transaction as the rows they describe.

CREATE TABLE pipeline_discoveries (
  workflow_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  source_id uuid NOT NULL REFERENCES pipeline_sources (id) ON DELETE CASCADE,
  -- Apply the result as refresh-schema when it succeeds.
  apply boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  streams jsonb,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
SELECT platform_enable_tenant_rls('pipeline_discoveries');

CREATE TABLE pipeline_sync_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  source_id uuid NOT NULL REFERENCES pipeline_sources (id) ON DELETE CASCADE,
  -- The orchestrator's run id: the pg-boss job running it.
  workflow_id text,
  trigger text NOT NULL DEFAULT 'manual' CHECK (trigger IN ('manual', 'schedule')),
  -- queued (or waiting for a retry), running, then succeeded, partial (some streams failed) or failed.
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'partial', 'failed')),
  -- The streams asked for by name; null: every enabled stream.
  requested_streams text[],
  attempts integer NOT NULL DEFAULT 0,
  rows_read bigint NOT NULL DEFAULT 0,
  rows_added bigint NOT NULL DEFAULT 0,
  rows_removed bigint NOT NULL DEFAULT 0,
  error text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX pipeline_sync_runs_source ON pipeline_sync_runs (tenant_id, source_id, created_at DESC);
CREATE INDEX pipeline_sync_runs_workflow ON pipeline_sync_runs (workflow_id);
-- One run of a source at a time.
CREATE UNIQUE INDEX pipeline_sync_runs_one_live ON pipeline_sync_runs (source_id) WHERE status IN ('queued', 'running');
SELECT platform_enable_tenant_rls('pipeline_sync_runs');

CREATE TABLE pipeline_sync_run_streams (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  run_id uuid NOT NULL REFERENCES pipeline_sync_runs (id) ON DELETE CASCADE,
  -- Not a foreign key: the history outlives a removed stream.
  stream_id uuid NOT NULL,
  stream_name text NOT NULL,
  namespace text,
  destination text NOT NULL,
  sync_mode text NOT NULL,
  write_mode text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  rows_read bigint NOT NULL DEFAULT 0,
  rows_added bigint NOT NULL DEFAULT 0,
  rows_removed bigint NOT NULL DEFAULT 0,
  type_errors bigint NOT NULL DEFAULT 0,
  snapshot_id bigint,
  snapshot_created boolean NOT NULL DEFAULT false,
  cursor_before text,
  cursor_after text,
  error text,
  finished_at timestamptz,
  PRIMARY KEY (run_id, stream_id)
);
SELECT platform_enable_tenant_rls('pipeline_sync_run_streams');

CREATE TABLE pipeline_run_logs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  run_id uuid NOT NULL REFERENCES pipeline_sync_runs (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  level text NOT NULL CHECK (level IN ('info', 'warn', 'error')),
  message text NOT NULL
);
CREATE INDEX pipeline_run_logs_run ON pipeline_run_logs (run_id, id);
SELECT platform_enable_tenant_rls('pipeline_run_logs');

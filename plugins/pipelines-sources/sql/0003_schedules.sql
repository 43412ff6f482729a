-- Source schedules (spec document 3, 3 and 4.2): cron in an IANA zone with the
-- platform's missed-run policy. Each unpaused schedule has one timer job
-- (graphile-worker, keyed per source) armed for next_run_at, replaced in the
-- same transaction as the row.
CREATE TABLE pipeline_source_schedules (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  source_id uuid PRIMARY KEY REFERENCES pipeline_sources (id) ON DELETE CASCADE,
  cron text NOT NULL CHECK (char_length(cron) <= 200),
  timezone text NOT NULL DEFAULT 'UTC',
  missed_run_policy text NOT NULL DEFAULT 'skip' CHECK (missed_run_policy IN ('skip', 'catch_up_once')),
  paused boolean NOT NULL DEFAULT false,
  next_run_at timestamptz,
  last_run_at timestamptz,
  -- started (with last_sync_run_id), missed, busy (a run was still going), failed
  last_outcome text,
  last_sync_run_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pipeline_source_schedules_tenant ON pipeline_source_schedules (tenant_id);
SELECT platform_enable_tenant_rls('pipeline_source_schedules');

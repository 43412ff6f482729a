-- Every key starts with tenant_id (a distributed PostgreSQL distributes these
-- tables by it: a primary key, a unique key (partial and expression ones
-- too) and a foreign key between two tenant tables must include it).
-- Behaviour does not change: routes, GraphQL and the sync and discovery jobs
-- (which carry their tenant) read these tables in a tenant transaction, where
-- row-level security adds tenant_id = app.tenant_id, so the new keys serve
-- the lookups by id; no reader looks a row up by id before it knows the
-- tenant, so no plain index on id is kept. A stream's name stays unique per
-- source and one sync run per source stays live: a source belongs to one
-- tenant. The index on tenant_id alone is the new key's prefix: dropped.
ALTER TABLE pipeline_streams DROP CONSTRAINT pipeline_streams_source_id_fkey;
ALTER TABLE pipeline_sync_runs DROP CONSTRAINT pipeline_sync_runs_source_id_fkey;
ALTER TABLE pipeline_discoveries DROP CONSTRAINT pipeline_discoveries_source_id_fkey;
ALTER TABLE pipeline_sync_run_streams DROP CONSTRAINT pipeline_sync_run_streams_run_id_fkey;
ALTER TABLE pipeline_run_logs DROP CONSTRAINT pipeline_run_logs_run_id_fkey;

ALTER TABLE pipeline_sources DROP CONSTRAINT pipeline_sources_pkey;
ALTER TABLE pipeline_sources ADD CONSTRAINT pipeline_sources_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE pipeline_streams DROP CONSTRAINT pipeline_streams_pkey;
ALTER TABLE pipeline_streams ADD CONSTRAINT pipeline_streams_pkey PRIMARY KEY (tenant_id, id);
DROP INDEX pipeline_streams_name;
CREATE UNIQUE INDEX pipeline_streams_name ON pipeline_streams (tenant_id, source_id, COALESCE(namespace, ''), name);

ALTER TABLE pipeline_sync_runs DROP CONSTRAINT pipeline_sync_runs_pkey;
ALTER TABLE pipeline_sync_runs ADD CONSTRAINT pipeline_sync_runs_pkey PRIMARY KEY (tenant_id, id);
DROP INDEX pipeline_sync_runs_one_live;
CREATE UNIQUE INDEX pipeline_sync_runs_one_live ON pipeline_sync_runs (tenant_id, source_id) WHERE status IN ('queued', 'running');

ALTER TABLE pipeline_sync_run_streams DROP CONSTRAINT pipeline_sync_run_streams_pkey;
ALTER TABLE pipeline_sync_run_streams ADD CONSTRAINT pipeline_sync_run_streams_pkey PRIMARY KEY (tenant_id, run_id, stream_id);

ALTER TABLE pipeline_run_logs DROP CONSTRAINT pipeline_run_logs_pkey;
ALTER TABLE pipeline_run_logs ADD CONSTRAINT pipeline_run_logs_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE pipeline_discoveries DROP CONSTRAINT pipeline_discoveries_pkey;
ALTER TABLE pipeline_discoveries ADD CONSTRAINT pipeline_discoveries_pkey PRIMARY KEY (tenant_id, workflow_id);

ALTER TABLE pipeline_source_files DROP CONSTRAINT pipeline_source_files_pkey;
ALTER TABLE pipeline_source_files ADD CONSTRAINT pipeline_source_files_pkey PRIMARY KEY (tenant_id, id);
DROP INDEX pipeline_source_files_tenant;

ALTER TABLE pipeline_streams ADD CONSTRAINT pipeline_streams_source_id_fkey
  FOREIGN KEY (tenant_id, source_id) REFERENCES pipeline_sources (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE pipeline_sync_runs ADD CONSTRAINT pipeline_sync_runs_source_id_fkey
  FOREIGN KEY (tenant_id, source_id) REFERENCES pipeline_sources (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE pipeline_discoveries ADD CONSTRAINT pipeline_discoveries_source_id_fkey
  FOREIGN KEY (tenant_id, source_id) REFERENCES pipeline_sources (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE pipeline_sync_run_streams ADD CONSTRAINT pipeline_sync_run_streams_run_id_fkey
  FOREIGN KEY (tenant_id, run_id) REFERENCES pipeline_sync_runs (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE pipeline_run_logs ADD CONSTRAINT pipeline_run_logs_run_id_fkey
  FOREIGN KEY (tenant_id, run_id) REFERENCES pipeline_sync_runs (tenant_id, id) ON DELETE CASCADE;

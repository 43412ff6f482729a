-- Every key starts with tenant_id (a distributed PostgreSQL distributes these
-- tables by it: a primary key, a unique key (partial ones too) and a foreign
-- key between two tenant tables must include it). Behaviour does not change:
-- routes, GraphQL, the sensor and the step jobs (which carry their tenant)
-- read these tables in a tenant transaction, where row-level security adds
-- tenant_id = app.tenant_id, so the new keys serve the lookups by id; no
-- reader looks a row up by id before it knows the tenant, so no plain index
-- on id is kept. One live production run per pipeline stays one per
-- (tenant, pipeline): a pipeline belongs to one tenant. The indexes on
-- tenant_id alone are the new keys' prefix: dropped.
ALTER TABLE pipeline_versions DROP CONSTRAINT pipeline_versions_pipeline_id_fkey;
ALTER TABLE pipeline_runs DROP CONSTRAINT pipeline_runs_pipeline_id_fkey;
ALTER TABLE pipeline_run_steps DROP CONSTRAINT pipeline_run_steps_run_id_fkey;

ALTER TABLE pipelines DROP CONSTRAINT pipelines_pkey;
ALTER TABLE pipelines ADD CONSTRAINT pipelines_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE pipeline_versions DROP CONSTRAINT pipeline_versions_pkey;
ALTER TABLE pipeline_versions ADD CONSTRAINT pipeline_versions_pkey PRIMARY KEY (tenant_id, pipeline_id, version);
DROP INDEX pipeline_versions_tenant;

ALTER TABLE pipeline_runs DROP CONSTRAINT pipeline_runs_pkey;
ALTER TABLE pipeline_runs ADD CONSTRAINT pipeline_runs_pkey PRIMARY KEY (tenant_id, id);
DROP INDEX pipeline_runs_one_live;
CREATE UNIQUE INDEX pipeline_runs_one_live ON pipeline_runs (tenant_id, pipeline_id) WHERE kind = 'production' AND status = 'running';

ALTER TABLE pipeline_run_steps DROP CONSTRAINT pipeline_run_steps_pkey;
ALTER TABLE pipeline_run_steps ADD CONSTRAINT pipeline_run_steps_pkey PRIMARY KEY (tenant_id, run_id, step_id);
DROP INDEX pipeline_run_steps_tenant;

ALTER TABLE pipeline_workflows DROP CONSTRAINT pipeline_workflows_pkey;
ALTER TABLE pipeline_workflows ADD CONSTRAINT pipeline_workflows_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE pipeline_versions ADD CONSTRAINT pipeline_versions_pipeline_id_fkey
  FOREIGN KEY (tenant_id, pipeline_id) REFERENCES pipelines (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE pipeline_runs ADD CONSTRAINT pipeline_runs_pipeline_id_fkey
  FOREIGN KEY (tenant_id, pipeline_id) REFERENCES pipelines (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE pipeline_run_steps ADD CONSTRAINT pipeline_run_steps_run_id_fkey
  FOREIGN KEY (tenant_id, run_id) REFERENCES pipeline_runs (tenant_id, id) ON DELETE CASCADE;

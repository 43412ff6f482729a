-- Every key starts with tenant_id (a distributed PostgreSQL distributes these
-- tables by it: a primary key, a unique key and a foreign key between two
-- tenant tables must include it). Behaviour does not change: routes, GraphQL,
-- the run jobs and the schedule (which carry their tenant) read these tables
-- in a tenant transaction, where row-level security adds
-- tenant_id = app.tenant_id, so the new keys serve the lookups by id; no
-- reader looks a row up by id before it knows the tenant, so no plain index
-- on id is kept.
ALTER TABLE transform_runs DROP CONSTRAINT transform_runs_transform_id_fkey;
ALTER TABLE transform_artifacts DROP CONSTRAINT transform_artifacts_transform_id_fkey;
ALTER TABLE transform_artifacts DROP CONSTRAINT transform_artifacts_run_id_fkey;
ALTER TABLE transform_generic_runs DROP CONSTRAINT transform_generic_runs_triggering_transform_id_fkey;

ALTER TABLE transforms DROP CONSTRAINT transforms_pkey;
ALTER TABLE transforms ADD CONSTRAINT transforms_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE transform_runs DROP CONSTRAINT transform_runs_pkey;
ALTER TABLE transform_runs ADD CONSTRAINT transform_runs_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE transform_artifacts DROP CONSTRAINT transform_artifacts_pkey;
ALTER TABLE transform_artifacts ADD CONSTRAINT transform_artifacts_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE transform_generic_runs DROP CONSTRAINT transform_generic_runs_pkey;
ALTER TABLE transform_generic_runs ADD CONSTRAINT transform_generic_runs_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE transform_runs ADD CONSTRAINT transform_runs_transform_id_fkey
  FOREIGN KEY (tenant_id, transform_id) REFERENCES transforms (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE transform_artifacts ADD CONSTRAINT transform_artifacts_transform_id_fkey
  FOREIGN KEY (tenant_id, transform_id) REFERENCES transforms (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE transform_artifacts ADD CONSTRAINT transform_artifacts_run_id_fkey
  FOREIGN KEY (tenant_id, run_id) REFERENCES transform_runs (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE transform_generic_runs ADD CONSTRAINT transform_generic_runs_triggering_transform_id_fkey
  FOREIGN KEY (tenant_id, triggering_transform_id) REFERENCES transforms (tenant_id, id) ON DELETE CASCADE;

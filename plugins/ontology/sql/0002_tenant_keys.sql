-- Every key starts with tenant_id (a distributed PostgreSQL distributes these
-- tables by it: a primary key, a unique key and a foreign key between two
-- tenant tables must include it). Behaviour does not change: every query
-- (routes, GraphQL, the sync job, which carries its tenant) reads these
-- tables in a tenant transaction, where row-level security adds
-- tenant_id = app.tenant_id, so the new keys serve the lookups by id; no
-- reader looks a row up by id before it knows the tenant, so no plain index
-- on id is kept.
ALTER TABLE ontology_entities DROP CONSTRAINT ontology_entities_backing_dataset_id_fkey;
ALTER TABLE ontology_sync_runs DROP CONSTRAINT ontology_sync_runs_backing_dataset_id_fkey;
ALTER TABLE ontology_sync_logs DROP CONSTRAINT ontology_sync_logs_run_id_fkey;

ALTER TABLE ontology_backing_datasets DROP CONSTRAINT ontology_backing_datasets_pkey;
ALTER TABLE ontology_backing_datasets ADD CONSTRAINT ontology_backing_datasets_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ontology_sync_runs DROP CONSTRAINT ontology_sync_runs_pkey;
ALTER TABLE ontology_sync_runs ADD CONSTRAINT ontology_sync_runs_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ontology_sync_logs DROP CONSTRAINT ontology_sync_logs_pkey;
ALTER TABLE ontology_sync_logs ADD CONSTRAINT ontology_sync_logs_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ontology_entities ADD CONSTRAINT ontology_entities_backing_dataset_id_fkey
  FOREIGN KEY (tenant_id, backing_dataset_id) REFERENCES ontology_backing_datasets (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE ontology_sync_runs ADD CONSTRAINT ontology_sync_runs_backing_dataset_id_fkey
  FOREIGN KEY (tenant_id, backing_dataset_id) REFERENCES ontology_backing_datasets (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE ontology_sync_logs ADD CONSTRAINT ontology_sync_logs_run_id_fkey
  FOREIGN KEY (tenant_id, run_id) REFERENCES ontology_sync_runs (tenant_id, id) ON DELETE CASCADE;

-- The key starts with tenant_id (a distributed PostgreSQL distributes the
-- table by it: its primary key must include it). Behaviour does not change:
-- routes and the compose jobs (which carry their tenant) read compositions in
-- a tenant transaction, where row-level security adds
-- tenant_id = app.tenant_id, so the new key serves the lookups by id; no
-- reader looks one up by id before it knows the tenant, so no plain index on
-- id is kept.
ALTER TABLE pipelines_ai_compositions DROP CONSTRAINT pipelines_ai_compositions_pkey;
ALTER TABLE pipelines_ai_compositions ADD CONSTRAINT pipelines_ai_compositions_pkey PRIMARY KEY (tenant_id, id);

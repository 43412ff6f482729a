-- The schema registry's primary key starts with tenant_id, as every tenant
-- table's (a distributed PostgreSQL distributes it by tenant_id). Every read
-- runs in a tenant transaction (row-level security adds tenant_id) and looks
-- a schema up by subject and version, which the unique key serves; nothing
-- references it.
ALTER TABLE schema_registry DROP CONSTRAINT schema_registry_pkey;
ALTER TABLE schema_registry ADD CONSTRAINT schema_registry_pkey PRIMARY KEY (tenant_id, id);

-- The primary key of embed_configs starts with tenant_id, the column a
-- distributed PostgreSQL shards tenant tables by: (tenant_id, client_id). Its
-- foreign key to clients stays on client_id alone: clients is a reference
-- table (its client_key is unique across tenants).
-- Indexes: every query of embed_configs runs in a tenant transaction
-- (row-level security adds tenant_id), so the new primary key serves the
-- lookups by client_id, and the (tenant_id, client_id) index it repeats is
-- dropped.
ALTER TABLE embed_configs DROP CONSTRAINT embed_configs_pkey;
ALTER TABLE embed_configs ADD CONSTRAINT embed_configs_pkey PRIMARY KEY (tenant_id, client_id);
DROP INDEX embed_configs_tenant_idx;

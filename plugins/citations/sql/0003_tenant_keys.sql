-- The primary key of citations starts with tenant_id, the column a
-- distributed PostgreSQL shards tenant tables by.
-- Indexes: every query of citations runs in a tenant transaction (row-level
-- security adds tenant_id), so the new primary key serves the lookups by id;
-- no plain index on id is kept.
ALTER TABLE citations DROP CONSTRAINT citations_pkey;
ALTER TABLE citations ADD CONSTRAINT citations_pkey PRIMARY KEY (tenant_id, id);

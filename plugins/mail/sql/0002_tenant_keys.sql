-- The outbox's primary key starts with tenant_id, the column a distributed
-- PostgreSQL shards tenant tables by.
-- Indexes: every query of the outbox runs in a tenant transaction (row-level
-- security adds tenant_id; the delivery task's payload names the tenant), so
-- the new primary key serves the lookups by id; no plain index on id is kept.
ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_pkey;
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_pkey PRIMARY KEY (tenant_id, id);

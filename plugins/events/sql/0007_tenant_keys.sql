-- Every key of a trigger table starts with tenant_id, the column a
-- distributed PostgreSQL shards tenant tables by.
-- Indexes: every query of these tables runs in a tenant transaction (row-level
-- security adds tenant_id), so the new primary keys serve the lookups by id;
-- no plain index on id is kept.
ALTER TABLE trigger_dispatches DROP CONSTRAINT trigger_dispatches_pkey;
ALTER TABLE trigger_dispatches ADD CONSTRAINT trigger_dispatches_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE trigger_backfills DROP CONSTRAINT trigger_backfills_pkey;
ALTER TABLE trigger_backfills ADD CONSTRAINT trigger_backfills_pkey PRIMARY KEY (tenant_id, id);

-- Snapshots are keyed by tenant (a distributed PostgreSQL distributes the
-- table by tenant_id: its primary key must include it). Every read finds
-- snapshots by dataset_ref (lake_snapshots_dataset), also for another
-- tenant's shared dataset, so no plain index on snapshot_id is kept.
-- The dataset registry keeps its global keys: a dataset id
-- (<namespace>.<layer>.<table>, shared layers included) and its physical
-- table (one relation in the namespace's schema, shared by the whole
-- database) are names of the one catalog, unique across tenants by design,
-- and any tenant looks a shared dataset up by its id. Distributed, it is a
-- small reference table; a foreign key from snapshots to it needs no tenant.
ALTER TABLE lake_snapshots DROP CONSTRAINT lake_snapshots_pkey;
ALTER TABLE lake_snapshots ADD CONSTRAINT lake_snapshots_pkey PRIMARY KEY (tenant_id, snapshot_id);

-- Every key starts with tenant_id (a distributed PostgreSQL distributes these
-- tables by it: a primary key, a unique key and a foreign key between two
-- tenant tables must include it). Behaviour does not change: every query
-- reads these tables in a tenant transaction, where row-level security adds
-- tenant_id = app.tenant_id, so the new keys serve the lookups by id; no
-- reader looks a policy up before it knows the tenant, so no plain index on
-- id is kept. The index on tenant_id alone is the new key's prefix: dropped.
ALTER TABLE identity_policy_versions DROP CONSTRAINT identity_policy_versions_policy_id_fkey;
ALTER TABLE identity_policies DROP CONSTRAINT identity_policies_pkey;
ALTER TABLE identity_policies ADD CONSTRAINT identity_policies_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE identity_policy_versions DROP CONSTRAINT identity_policy_versions_pkey;
ALTER TABLE identity_policy_versions ADD CONSTRAINT identity_policy_versions_pkey PRIMARY KEY (tenant_id, policy_id, version);
DROP INDEX identity_policy_versions_tenant;
ALTER TABLE identity_policy_versions ADD CONSTRAINT identity_policy_versions_policy_id_fkey
  FOREIGN KEY (tenant_id, policy_id) REFERENCES identity_policies (tenant_id, id) ON DELETE CASCADE;

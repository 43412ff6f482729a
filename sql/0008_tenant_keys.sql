-- Every key of a tenant table starts with tenant_id, the column a distributed
-- PostgreSQL shards tenant tables by. api_keys: the primary key becomes
-- (tenant_id, id) and the key hash is unique within its tenant: an API key
-- names its tenant, so authentication looks the hash up in that tenant's
-- transaction. Every query of api_keys runs in a tenant transaction
-- (row-level security adds tenant_id), so the new keys serve lookups by id
-- and by hash, and the (tenant_id, id) index they replace is dropped.
-- clients keeps its keys: its client_key is unique across tenants (public
-- routes find the tenant from it), so it is a reference table.
ALTER TABLE api_keys DROP CONSTRAINT api_keys_pkey;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE api_keys DROP CONSTRAINT api_keys_key_hash_key;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_key_hash_key UNIQUE (tenant_id, key_hash);
DROP INDEX api_keys_tenant_idx;

-- Every key of an integrations table starts with tenant_id, the column a
-- distributed PostgreSQL shards tenant tables by: primary keys become
-- (tenant_id, id), an operation is unique per (tenant_id, spec_id,
-- operation_key), and a function's spec is a composite foreign key with the
-- same ON DELETE CASCADE.
-- Indexes: every query of these tables runs in a tenant transaction (row-level
-- security adds tenant_id), so the new primary keys serve the lookups by id;
-- no plain index on id is kept.
ALTER TABLE integration_functions DROP CONSTRAINT integration_functions_spec_id_fkey;
ALTER TABLE integration_specs DROP CONSTRAINT integration_specs_pkey;
ALTER TABLE integration_specs ADD CONSTRAINT integration_specs_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE integration_functions DROP CONSTRAINT integration_functions_pkey;
ALTER TABLE integration_functions ADD CONSTRAINT integration_functions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE integration_functions DROP CONSTRAINT integration_functions_spec_id_operation_key_key;
ALTER TABLE integration_functions ADD CONSTRAINT integration_functions_spec_id_operation_key_key UNIQUE (tenant_id, spec_id, operation_key);
ALTER TABLE integration_functions ADD CONSTRAINT integration_functions_tenant_id_spec_id_fkey
  FOREIGN KEY (tenant_id, spec_id) REFERENCES integration_specs (tenant_id, id) ON DELETE CASCADE;

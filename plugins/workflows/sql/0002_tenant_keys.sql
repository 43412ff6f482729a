-- Every key of a workflows table starts with tenant_id, the column a
-- distributed PostgreSQL shards tenant tables by.
-- Indexes: every query of these tables runs in a tenant transaction (row-level
-- security adds tenant_id), so the new primary keys serve the lookups by id;
-- no plain index on id is kept.
ALTER TABLE workflow_definitions DROP CONSTRAINT workflow_definitions_pkey;
ALTER TABLE workflow_definitions ADD CONSTRAINT workflow_definitions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE workflow_executions DROP CONSTRAINT workflow_executions_pkey;
ALTER TABLE workflow_executions ADD CONSTRAINT workflow_executions_pkey PRIMARY KEY (tenant_id, id);

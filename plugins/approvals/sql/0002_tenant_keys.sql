-- Every key of an approvals table starts with tenant_id, the column a
-- distributed PostgreSQL shards tenant tables by: primary keys (tenant_id,
-- id) and (tenant_id, case_id, approver), and a link use's case a composite
-- foreign key with the same ON DELETE CASCADE.
-- Indexes: every query of these tables runs in a tenant transaction
-- (row-level security adds tenant_id; an approval link's claims name the
-- tenant), so the new primary keys serve the lookups by id; no plain index on
-- id is kept.
ALTER TABLE approval_link_uses DROP CONSTRAINT approval_link_uses_case_id_fkey;
ALTER TABLE approval_cases DROP CONSTRAINT approval_cases_pkey;
ALTER TABLE approval_cases ADD CONSTRAINT approval_cases_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE approval_link_uses DROP CONSTRAINT approval_link_uses_pkey;
ALTER TABLE approval_link_uses ADD CONSTRAINT approval_link_uses_pkey PRIMARY KEY (tenant_id, case_id, approver);
ALTER TABLE approval_link_uses ADD CONSTRAINT approval_link_uses_tenant_id_case_id_fkey
  FOREIGN KEY (tenant_id, case_id) REFERENCES approval_cases (tenant_id, id) ON DELETE CASCADE;

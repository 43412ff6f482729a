-- Every key of a forms table starts with tenant_id, the column a distributed
-- PostgreSQL shards tenant tables by: primary keys become (tenant_id, ...), a
-- submission's seq and a file's token hash are unique per tenant (a file's
-- token is redeemed in its tenant's transaction), and a submission's form
-- version is a composite foreign key. The (tenant_id, id) unique keys that
-- the composite foreign keys referenced are now the primary keys: the foreign
-- keys move to them, with the same ON DELETE behaviour, and the duplicates go.
-- Indexes: every query of these tables runs in a tenant transaction
-- (row-level security adds tenant_id), so the new keys serve the lookups by
-- id, seq and token hash; no plain index on them is kept. The unique
-- (tenant_id, seq) also serves the newest-first list, so the
-- (tenant_id, seq DESC) index it repeats is dropped.
ALTER TABLE forms_definition_versions DROP CONSTRAINT forms_definition_versions_tenant_id_definition_id_fkey;
ALTER TABLE forms_use_cases DROP CONSTRAINT forms_use_cases_tenant_id_definition_id_fkey;
ALTER TABLE forms_field_bindings DROP CONSTRAINT forms_field_bindings_tenant_id_use_case_id_fkey;
ALTER TABLE forms_submissions DROP CONSTRAINT forms_submissions_tenant_id_use_case_id_fkey;
ALTER TABLE forms_submissions DROP CONSTRAINT forms_submissions_definition_id_form_version_fkey;
ALTER TABLE forms_files DROP CONSTRAINT forms_files_tenant_id_submission_id_fkey;
ALTER TABLE forms_hydrations DROP CONSTRAINT forms_hydrations_tenant_id_submission_id_fkey;
ALTER TABLE forms_redactions DROP CONSTRAINT forms_redactions_tenant_id_submission_id_fkey;

ALTER TABLE forms_definitions DROP CONSTRAINT forms_definitions_tenant_id_id_key;
ALTER TABLE forms_definitions DROP CONSTRAINT forms_definitions_pkey;
ALTER TABLE forms_definitions ADD CONSTRAINT forms_definitions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE forms_definition_versions DROP CONSTRAINT forms_definition_versions_pkey;
ALTER TABLE forms_definition_versions ADD CONSTRAINT forms_definition_versions_pkey PRIMARY KEY (tenant_id, definition_id, version);
ALTER TABLE forms_use_cases DROP CONSTRAINT forms_use_cases_tenant_id_id_key;
ALTER TABLE forms_use_cases DROP CONSTRAINT forms_use_cases_pkey;
ALTER TABLE forms_use_cases ADD CONSTRAINT forms_use_cases_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE forms_field_bindings DROP CONSTRAINT forms_field_bindings_pkey;
ALTER TABLE forms_field_bindings ADD CONSTRAINT forms_field_bindings_pkey PRIMARY KEY (tenant_id, use_case_id, position);
ALTER TABLE forms_submissions DROP CONSTRAINT forms_submissions_tenant_id_id_key;
ALTER TABLE forms_submissions DROP CONSTRAINT forms_submissions_pkey;
ALTER TABLE forms_submissions ADD CONSTRAINT forms_submissions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE forms_submissions DROP CONSTRAINT forms_submissions_seq_key;
ALTER TABLE forms_submissions ADD CONSTRAINT forms_submissions_seq_key UNIQUE (tenant_id, seq);
DROP INDEX forms_submissions_recent;
ALTER TABLE forms_files DROP CONSTRAINT forms_files_pkey;
ALTER TABLE forms_files ADD CONSTRAINT forms_files_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE forms_files DROP CONSTRAINT forms_files_token_hash_key;
ALTER TABLE forms_files ADD CONSTRAINT forms_files_token_hash_key UNIQUE (tenant_id, token_hash);
ALTER TABLE forms_hydrations DROP CONSTRAINT forms_hydrations_pkey;
ALTER TABLE forms_hydrations ADD CONSTRAINT forms_hydrations_pkey PRIMARY KEY (tenant_id, submission_id, attempt);
ALTER TABLE forms_redactions DROP CONSTRAINT forms_redactions_pkey;
ALTER TABLE forms_redactions ADD CONSTRAINT forms_redactions_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE forms_definition_versions ADD CONSTRAINT forms_definition_versions_tenant_id_definition_id_fkey
  FOREIGN KEY (tenant_id, definition_id) REFERENCES forms_definitions (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE forms_use_cases ADD CONSTRAINT forms_use_cases_tenant_id_definition_id_fkey
  FOREIGN KEY (tenant_id, definition_id) REFERENCES forms_definitions (tenant_id, id);
ALTER TABLE forms_field_bindings ADD CONSTRAINT forms_field_bindings_tenant_id_use_case_id_fkey
  FOREIGN KEY (tenant_id, use_case_id) REFERENCES forms_use_cases (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE forms_submissions ADD CONSTRAINT forms_submissions_tenant_id_use_case_id_fkey
  FOREIGN KEY (tenant_id, use_case_id) REFERENCES forms_use_cases (tenant_id, id);
ALTER TABLE forms_submissions ADD CONSTRAINT forms_submissions_tenant_id_definition_id_form_version_fkey
  FOREIGN KEY (tenant_id, definition_id, form_version) REFERENCES forms_definition_versions (tenant_id, definition_id, version);
ALTER TABLE forms_files ADD CONSTRAINT forms_files_tenant_id_submission_id_fkey
  FOREIGN KEY (tenant_id, submission_id) REFERENCES forms_submissions (tenant_id, id);
ALTER TABLE forms_hydrations ADD CONSTRAINT forms_hydrations_tenant_id_submission_id_fkey
  FOREIGN KEY (tenant_id, submission_id) REFERENCES forms_submissions (tenant_id, id);
ALTER TABLE forms_redactions ADD CONSTRAINT forms_redactions_tenant_id_submission_id_fkey
  FOREIGN KEY (tenant_id, submission_id) REFERENCES forms_submissions (tenant_id, id);

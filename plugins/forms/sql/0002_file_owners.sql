-- A consumed upload belongs to a form submission or, through
-- FormsApi.claimFiles, to another plugin's object (an occurrence's
-- attachment): owner_plugin names that plugin, owner_id its object. A file
-- has at most one owner; "consumed" is consumed_at, whoever the owner is.
ALTER TABLE forms_files ADD COLUMN owner_plugin text, ADD COLUMN owner_id text;
ALTER TABLE forms_files ADD CONSTRAINT forms_files_owner_pair CHECK ((owner_plugin IS NULL) = (owner_id IS NULL));
ALTER TABLE forms_files ADD CONSTRAINT forms_files_one_owner CHECK (submission_id IS NULL OR owner_plugin IS NULL);
CREATE INDEX forms_files_owner ON forms_files (tenant_id, owner_plugin, owner_id) WHERE owner_plugin IS NOT NULL;
-- The pruning index: unconsumed is consumed_at IS NULL now (a file another
-- plugin claimed has no submission and must never be pruned).
DROP INDEX forms_files_unconsumed;
CREATE INDEX forms_files_unconsumed ON forms_files (tenant_id, expires_at) WHERE consumed_at IS NULL;

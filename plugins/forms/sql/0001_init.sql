-- Forms plugin: form definitions with immutable versions, use cases that bind
-- a pinned version to a hydration target, field bindings, uploaded files with
-- single-use tokens, immutable submissions, their hydration attempts and
-- redactions. Every table is tenant-owned (forced row-level security).

-- A definition is a name over numbered versions; editing the schema adds a
-- version. Deleting it only archives it (deleted_at): submissions that pinned
-- one of its versions keep showing that version.
CREATE TABLE forms_definitions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  description text NOT NULL DEFAULT '',
  latest_version integer NOT NULL DEFAULT 1 CHECK (latest_version >= 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  UNIQUE (tenant_id, id)
);
CREATE UNIQUE INDEX forms_definitions_live_name ON forms_definitions (tenant_id, name) WHERE deleted_at IS NULL;
SELECT platform_enable_tenant_rls('forms_definitions');

-- Versions are never updated nor deleted (only with their tenant).
CREATE TABLE forms_definition_versions (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  definition_id uuid NOT NULL,
  version integer NOT NULL CHECK (version >= 1),
  schema jsonb NOT NULL,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (definition_id, version),
  FOREIGN KEY (tenant_id, definition_id) REFERENCES forms_definitions (tenant_id, id) ON DELETE CASCADE
);
SELECT platform_enable_tenant_rls('forms_definition_versions');

CREATE FUNCTION forms_version_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'form version % of % is immutable', OLD.version, OLD.definition_id USING ERRCODE = 'check_violation';
END $$;
CREATE TRIGGER forms_definition_versions_immutable BEFORE UPDATE ON forms_definition_versions
  FOR EACH ROW EXECUTE FUNCTION forms_version_immutable();

-- form_version null: the definition's latest version at each submission.
CREATE TABLE forms_use_cases (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  definition_id uuid NOT NULL,
  form_version integer CHECK (form_version >= 1),
  target_model text NOT NULL,
  target_config jsonb NOT NULL DEFAULT '{}',
  access text NOT NULL CHECK (access IN ('public', 'authenticated')),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  UNIQUE (tenant_id, id),
  FOREIGN KEY (tenant_id, definition_id) REFERENCES forms_definitions (tenant_id, id)
);
CREATE INDEX forms_use_cases_definition ON forms_use_cases (tenant_id, definition_id) WHERE deleted_at IS NULL;
SELECT platform_enable_tenant_rls('forms_use_cases');

-- A use case's bindings are replaced as a whole (PUT); position keeps their order.
CREATE TABLE forms_field_bindings (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  use_case_id uuid NOT NULL,
  position integer NOT NULL,
  source_field_path text NOT NULL,
  target_field_path text NOT NULL,
  transform text NOT NULL CHECK (transform IN ('NONE', 'TO_INT', 'LOOKUP', 'GEO_PARSE')),
  transform_params jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (use_case_id, position),
  FOREIGN KEY (tenant_id, use_case_id) REFERENCES forms_use_cases (tenant_id, id) ON DELETE CASCADE
);
SELECT platform_enable_tenant_rls('forms_field_bindings');

-- Submissions: payload_json and the pinned version never change. The one
-- update allowed is a redaction, which must stamp redacted_at.
CREATE TABLE forms_submissions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  use_case_id uuid NOT NULL,
  definition_id uuid NOT NULL,
  form_version integer NOT NULL,
  payload_json jsonb NOT NULL,
  municipality text,
  submitted_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  redacted_at timestamptz,
  UNIQUE (tenant_id, id),
  FOREIGN KEY (tenant_id, use_case_id) REFERENCES forms_use_cases (tenant_id, id),
  FOREIGN KEY (definition_id, form_version) REFERENCES forms_definition_versions (definition_id, version)
);
CREATE INDEX forms_submissions_recent ON forms_submissions (tenant_id, seq DESC);
CREATE INDEX forms_submissions_use_case ON forms_submissions (tenant_id, use_case_id, seq DESC);
SELECT platform_enable_tenant_rls('forms_submissions');

CREATE FUNCTION forms_submission_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.redacted_at IS NULL OR NEW.redacted_at IS NOT DISTINCT FROM OLD.redacted_at
     OR NEW.id <> OLD.id OR NEW.use_case_id <> OLD.use_case_id OR NEW.definition_id <> OLD.definition_id
     OR NEW.form_version <> OLD.form_version OR NEW.created_at <> OLD.created_at THEN
    RAISE EXCEPTION 'submission % is immutable (only a redaction may change it)', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER forms_submissions_immutable BEFORE UPDATE ON forms_submissions
  FOR EACH ROW EXECUTE FUNCTION forms_submission_immutable();

-- Uploaded files. Only the SHA-256 of a token is kept. A file is consumed by
-- the submission that names its token (submission_id, consumed_at), in that
-- submission's transaction; an unconsumed one expires and is pruned.
CREATE TABLE forms_files (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  uploaded_by text NOT NULL,
  name text NOT NULL,
  content_type text NOT NULL,
  size integer NOT NULL CHECK (size >= 0),
  content bytea NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  consumed_at timestamptz,
  submission_id uuid,
  -- Where the submission's payload references it (`photos[0]`).
  payload_path text,
  redacted_at timestamptz,
  FOREIGN KEY (tenant_id, submission_id) REFERENCES forms_submissions (tenant_id, id)
);
CREATE INDEX forms_files_submission ON forms_files (tenant_id, submission_id) WHERE submission_id IS NOT NULL;
CREATE INDEX forms_files_unconsumed ON forms_files (tenant_id, expires_at) WHERE submission_id IS NULL;
SELECT platform_enable_tenant_rls('forms_files');

-- One row per hydration attempt: the first with the submission (it exists
-- only if hydration succeeded), later ones from an admin's rehydrate.
CREATE TABLE forms_hydrations (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  submission_id uuid NOT NULL,
  attempt integer NOT NULL CHECK (attempt >= 1),
  status text NOT NULL CHECK (status IN ('hydrated', 'failed')),
  target_model text NOT NULL,
  object_id text,
  object jsonb,
  errors jsonb NOT NULL DEFAULT '[]',
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (submission_id, attempt),
  FOREIGN KEY (tenant_id, submission_id) REFERENCES forms_submissions (tenant_id, id)
);
SELECT platform_enable_tenant_rls('forms_hydrations');

-- The record of each redaction: who, when, why, what.
CREATE TABLE forms_redactions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  submission_id uuid NOT NULL,
  redacted_by text NOT NULL,
  reason text NOT NULL,
  fields jsonb NOT NULL,
  files integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, submission_id) REFERENCES forms_submissions (tenant_id, id)
);
CREATE INDEX forms_redactions_submission ON forms_redactions (tenant_id, submission_id);
SELECT platform_enable_tenant_rls('forms_redactions');

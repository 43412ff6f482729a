-- Identity policies (entity resolution) and the tenant schema registry (spec
-- document 3, 4.5 "Schemas" and 4.6). Every table is a tenant table under
-- forced row-level security. The built-in schema libraries are code
-- (library/), not rows: the registry copies them in on sync-catalog.

-- Matching uses trigram similarity (core creates it too; kept for a plugin read alone).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- A policy: its name and description change in place; what it matches with
-- lives in immutable versions. Deleting keeps the row (deleted_at) and its
-- versions, and frees the name.
CREATE TABLE identity_policies (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name ~ '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$'),
  description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 2000),
  current_version integer NOT NULL DEFAULT 1,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX identity_policies_name ON identity_policies (tenant_id, name) WHERE deleted_at IS NULL;
CREATE INDEX identity_policies_list ON identity_policies (tenant_id, created_at, id) WHERE deleted_at IS NULL;
SELECT platform_enable_tenant_rls('identity_policies');

-- An immutable version: the matching spec (rules, blocking keys, block size)
-- and its fingerprint (sha-256 of the canonical spec), which ontology syncs
-- fold into their effective-spec fingerprint.
CREATE TABLE identity_policy_versions (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  policy_id uuid NOT NULL REFERENCES identity_policies (id) ON DELETE CASCADE,
  version integer NOT NULL CHECK (version >= 1),
  spec jsonb NOT NULL,
  fingerprint text NOT NULL,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (policy_id, version)
);
CREATE INDEX identity_policy_versions_tenant ON identity_policy_versions (tenant_id);
SELECT platform_enable_tenant_rls('identity_policy_versions');

-- The tenant's schema registry: subjects with immutable versions (a new
-- version only when the schema's fingerprint changes). `source` says where a
-- version came from: registered, discovered (inferred from a dataset) or
-- library (copied from a built-in by sync-catalog).
CREATE TABLE schema_registry (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  subject text NOT NULL CHECK (subject ~ '^[A-Za-z0-9_][A-Za-z0-9_./-]{0,199}$'),
  version integer NOT NULL CHECK (version >= 1),
  domain text CHECK (char_length(domain) <= 100),
  description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 2000),
  schema jsonb NOT NULL,
  fingerprint text NOT NULL,
  source text NOT NULL CHECK (source IN ('registered', 'discovered', 'library')),
  dataset_id text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, subject, version)
);
CREATE INDEX schema_registry_search ON schema_registry USING gin (subject gin_trgm_ops);
SELECT platform_enable_tenant_rls('schema_registry');

-- Integrations plugin: imported OpenAPI descriptions ("specs"), the functions
-- derived from their operations, and the credentials applied when they are
-- called. Every secret value is sealed (AES-256-GCM under the master key, with
-- the row's identity as associated data) and never leaves in a response.

CREATE TABLE integration_specs (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  -- Also the `service_name` that client and session credentials name.
  name text NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$'),
  prefix text NOT NULL DEFAULT '',
  source_kind text NOT NULL CHECK (source_kind IN ('url', 'file', 'inline')),
  source_url text,
  -- The document itself, for uploads and inline documents (there is nothing to re-fetch).
  document text,
  content_hash text NOT NULL,
  format text NOT NULL CHECK (format IN ('swagger-2.0', 'openapi-3.0', 'openapi-3.1')),
  title text NOT NULL DEFAULT '',
  api_version text NOT NULL DEFAULT '',
  base_url text,
  -- Import settings kept for re-sync: include/exclude filters, name overrides, base_url override.
  settings jsonb NOT NULL DEFAULT '{}',
  -- scheme, header, query_param, credential_source, token_url, value_fingerprint (never the value).
  auth jsonb NOT NULL DEFAULT '{"scheme": "none"}',
  auth_value_sealed text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'sync_failed')),
  warnings jsonb NOT NULL DEFAULT '[]',
  last_sync_at timestamptz,
  last_sync_result text CHECK (last_sync_result IN ('imported', 'synced', 'skipped', 'failed')),
  last_error text,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, name)
);
SELECT platform_enable_tenant_rls('integration_specs');

-- One function per operation. `operation_key` ("GET /pets/{id}") identifies
-- the operation across re-syncs; an operation gone from the spec is marked
-- `removed` (a call then fails clearly) instead of being deleted.
CREATE TABLE integration_functions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  spec_id uuid NOT NULL REFERENCES integration_specs (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name ~ '^[a-z][a-z0-9_]{0,63}$'),
  operation_key text NOT NULL,
  operation_id text,
  method text NOT NULL,
  path text NOT NULL,
  summary text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  -- An edited description survives re-syncs.
  description_edited boolean NOT NULL DEFAULT false,
  parameters jsonb NOT NULL,
  json_schema jsonb NOT NULL,
  request jsonb NOT NULL,
  security jsonb,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'removed')),
  warnings jsonb NOT NULL DEFAULT '[]',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  removed_at timestamptz,
  -- Deferred: a re-sync may swap two functions' names within its transaction.
  UNIQUE (tenant_id, name) DEFERRABLE INITIALLY DEFERRED,
  UNIQUE (spec_id, operation_key)
);
CREATE INDEX integration_functions_spec_idx ON integration_functions (tenant_id, spec_id, name);
SELECT platform_enable_tenant_rls('integration_functions');

-- Client-level credentials (spec 2.2): one per client and service.
CREATE TABLE integration_client_credentials (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  service_name text NOT NULL,
  header text,
  value_sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, client_id, service_name)
);
SELECT platform_enable_tenant_rls('integration_client_credentials');

-- Session-level credentials: the first in the resolution order. `owner_sub`
-- is the principal that may replace or delete them.
CREATE TABLE integration_session_credentials (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  session_id text NOT NULL,
  service_name text NOT NULL,
  header text,
  value_sealed text NOT NULL,
  owner_sub text NOT NULL,
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, session_id, service_name)
);
SELECT platform_enable_tenant_rls('integration_session_credentials');

-- The tenant's secret store: what `auth_credential_source` refers to by key.
CREATE TABLE integration_secrets (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  key text NOT NULL CHECK (key ~ '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$'),
  value_sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, key)
);
SELECT platform_enable_tenant_rls('integration_secrets');

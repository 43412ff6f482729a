-- Sources of the data-pipeline service (spec document 3, 2.1, 4.2): sources
-- configured from a pattern (connector), their streams, sealed credentials
-- (vault mode), discovery workflows and sync runs. Every table is a tenant
-- table under forced row-level security. The rows a sync lands live in the
-- lakehouse (plugins/lakehouse), never here.

CREATE TABLE pipeline_sources (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name ~ '^[A-Za-z0-9_]{1,63}$'),
  pattern_id text NOT NULL,
  -- The pattern's configuration without its credential fields. In
  -- legacy_inline mode the credential fields are merged in here, each one
  -- sealed ({"$sealed": "..."}): kept across updates, never read back.
  source_config jsonb NOT NULL DEFAULT '{}',
  -- vault mode: the credential (pipeline_credentials.ref) the source uses.
  credential_ref text,
  -- ready: configured, never synced; active: has synced at least once.
  state text NOT NULL DEFAULT 'ready' CHECK (state IN ('ready', 'active')),
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, name)
);
CREATE INDEX pipeline_sources_credential ON pipeline_sources (tenant_id, credential_ref) WHERE credential_ref IS NOT NULL;
SELECT platform_enable_tenant_rls('pipeline_sources');

-- A stream of a source (2.1): its discovered shape, how it syncs, where it
-- lands and how far it got (runtime state: the cursor).
CREATE TABLE pipeline_streams (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  source_id uuid NOT NULL REFERENCES pipeline_sources (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  -- A real upstream container (a database schema); null for API streams.
  namespace text CHECK (char_length(namespace) <= 200),
  schema jsonb NOT NULL DEFAULT '{}',
  supported_sync_modes text[] NOT NULL DEFAULT '{full_refresh}',
  sync_mode text NOT NULL DEFAULT 'full_refresh' CHECK (sync_mode IN ('full_refresh', 'incremental')),
  write_mode text NOT NULL DEFAULT 'overwrite' CHECK (write_mode IN ('overwrite', 'append', 'append_dedup')),
  cursor_field text,
  primary_key text[] NOT NULL DEFAULT '{}',
  enabled boolean NOT NULL DEFAULT true,
  -- Destination routing: the dataset the stream lands in (raw.<tenant>.<table>).
  destination text NOT NULL,
  -- Runtime state: {cursor} after the last committed sync; committed with the rows.
  state jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Streams are matched by name within their namespace (refresh-schema).
CREATE UNIQUE INDEX pipeline_streams_name ON pipeline_streams (source_id, coalesce(namespace, ''), name);
CREATE UNIQUE INDEX pipeline_streams_destination ON pipeline_streams (tenant_id, destination);
SELECT platform_enable_tenant_rls('pipeline_streams');

-- Vault mode: sealed credential values (AES-256-GCM, the additional data binds
-- tenant, ref and version) with metadata only beside them. Never deleted with
-- a source or on detach; revoked when no source references it.
CREATE TABLE pipeline_credentials (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  ref text NOT NULL CHECK (ref ~ '^cred_[A-Za-z0-9_-]{16,64}$'),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  -- The pattern whose fields it holds.
  kind text NOT NULL,
  field_names text[] NOT NULL,
  sealed text NOT NULL,
  version integer NOT NULL DEFAULT 1,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
  rotated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, ref)
);
SELECT platform_enable_tenant_rls('pipeline_credentials');

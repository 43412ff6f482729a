-- The embed plugin (issue 17): a client's embed configuration and the
-- directory that finds a client from its public key.

-- One row per client that has been configured for embedding (spec
-- embed-chat 2.3). The embed credential is a service-account user of the
-- tenancy plugin (users.sub), linked here; its secret lives only there, hashed.
CREATE TABLE embed_configs (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  client_id bigint PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
  enabled boolean NOT NULL DEFAULT false,
  allowed_origins text[] NOT NULL DEFAULT '{}',
  default_mode text NOT NULL DEFAULT 'launcher' CHECK (default_mode IN ('launcher', 'inline')),
  features jsonb NOT NULL DEFAULT '{"uploads": false, "history": true, "feedback": true, "voice": false}',
  theme jsonb NOT NULL DEFAULT '{}',
  service_account_sub text,
  credentials_updated_at timestamptz,
  -- Bumped on every change: the definition.updated event carries it.
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX embed_configs_tenant_idx ON embed_configs (tenant_id, client_id);
SELECT platform_enable_tenant_rls('embed_configs');

-- The public endpoints (manifest, token minting) know only a client key, not
-- the tenant: this directory says which tenant and client a configured key
-- belongs to. It is global (like users), read and written only by the
-- platform's own connection before any tenant is known. Row-level security is
-- enabled without a policy and not forced: the tenant role sees and writes no
-- row of it, the owner (the platform's connection) all. Rows go with their
-- client or tenant.
CREATE TABLE embed_client_keys (
  client_key text PRIMARY KEY,
  tenant_alias text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  client_id bigint NOT NULL UNIQUE REFERENCES clients (id) ON DELETE CASCADE
);
ALTER TABLE embed_client_keys ENABLE ROW LEVEL SECURITY;

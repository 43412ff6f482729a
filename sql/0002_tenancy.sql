-- Tenancy plugin: clients, their API keys, users and service accounts.
CREATE TABLE clients (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  client_key text NOT NULL UNIQUE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX clients_tenant_idx ON clients (tenant_id, id);
SELECT platform_enable_tenant_rls('clients');

-- The key itself is never stored: only a SHA-256 hash and a display prefix.
CREATE TABLE api_keys (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  name text NOT NULL,
  key_prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_tenant_idx ON api_keys (tenant_id, id);
SELECT platform_enable_tenant_rls('api_keys');

-- Users are identities (like an identity provider's directory), not tenant rows:
-- `organizations` holds their memberships, keyed by tenant alias, with roles.
CREATE TABLE users (
  sub text PRIMARY KEY CHECK (char_length(sub) BETWEEN 1 AND 255),
  display_name text NOT NULL,
  organizations jsonb NOT NULL DEFAULT '{}',
  service_account boolean NOT NULL DEFAULT false,
  secret_hash text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_organizations_idx ON users USING gin (organizations);

-- Webhooks plugin: event-webhook definitions, each tenant's signing secret for
-- signed resume, and the idempotency and rate-limit state of both receivers.
-- That state is rows, not process memory, so it holds across server processes;
-- it is kept consistent by primary keys and INSERT ... ON CONFLICT (no advisory
-- locks, no NOTIFY: the embedded PGlite honours neither).

-- The secret itself is never stored: only its SHA-256 (it is 256 random bits).
CREATE TABLE webhook_definitions (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  secret_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  rotated_at timestamptz,
  PRIMARY KEY (tenant_id, name)
);
SELECT platform_enable_tenant_rls('webhook_definitions');

-- The signing secret must be used again (to compute HMACs), so it is sealed
-- with AES-256-GCM under the master key rather than hashed.
CREATE TABLE webhook_signing_secrets (
  tenant_id text PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  sealed_secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  rotated_at timestamptz
);
SELECT platform_enable_tenant_rls('webhook_signing_secrets');

-- One row per accepted X-Webhook-Id: the idempotency record. `scope` keeps the
-- signed-resume ids ('resume') apart from each event webhook's ('event:<name>').
-- A row older than the window no longer blocks its id; the prune task deletes it.
CREATE TABLE webhook_deliveries (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  scope text NOT NULL,
  webhook_id text NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, scope, webhook_id)
);
CREATE INDEX webhook_deliveries_received_idx ON webhook_deliveries (tenant_id, received_at);
SELECT platform_enable_tenant_rls('webhook_deliveries');

-- Signed-resume requests accepted per tenant per calendar minute.
CREATE TABLE webhook_rate (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  window_start timestamptz NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (tenant_id, window_start)
);
SELECT platform_enable_tenant_rls('webhook_rate');

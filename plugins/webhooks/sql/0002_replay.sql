-- Webhooks plugin: the replay record of signed resume. The spec's signature
-- (X-Webhook-Signature) covers the body only, so a captured request could be
-- sent again with a fresh X-Webhook-Id and X-Webhook-Timestamp; every accepted
-- signature is therefore remembered, per tenant, and refused when it comes
-- again. Stored is the SHA-256 of the HMAC (never the HMAC itself), the same
-- for both schemes (X-Webhook-* and Standard Webhooks), so a MAC accepted under
-- one scheme cannot be reused under the other either. A row blocks its
-- signature until `expires_at` (at least the 5-minute freshness window plus
-- 24 hours); after that a claim takes it over and the prune task deletes it.
CREATE TABLE webhook_signatures (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  signature_hash text NOT NULL,
  accepted_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, signature_hash)
);
CREATE INDEX webhook_signatures_expires_idx ON webhook_signatures (tenant_id, expires_at);
SELECT platform_enable_tenant_rls('webhook_signatures');

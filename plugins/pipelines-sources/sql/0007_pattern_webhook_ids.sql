-- The ids (Standard Webhooks webhook-id) of the reconcile webhook's accepted
-- messages, each kept until its timestamp leaves the freshness window: a
-- replayed message is refused by every process. Expired ids are deleted as
-- messages arrive. Global, like the registrations.
CREATE TABLE pipeline_pattern_webhook_ids (
  id text PRIMARY KEY CHECK (char_length(id) BETWEEN 1 AND 255),
  expires_at timestamptz NOT NULL
);
CREATE INDEX pipeline_pattern_webhook_ids_expires ON pipeline_pattern_webhook_ids (expires_at);
-- Only the platform's own connection reads and writes it (no policy for the tenant role).
ALTER TABLE pipeline_pattern_webhook_ids ENABLE ROW LEVEL SECURITY;

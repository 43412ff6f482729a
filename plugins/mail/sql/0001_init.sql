-- Mail plugin: the outbox. A message is written in the caller's transaction
-- (so nothing is sent for a change that rolls back) and delivered after the
-- commit by the mail.deliver job; a periodic sweep delivers what a lost job
-- left behind.
--
-- state: held (no SMTP transport configured: kept until an operator retries
-- it), pending (waiting for its first attempt), sending (claimed by a
-- delivery until next_attempt_at, its lease), failed (the last attempt failed;
-- the next is at next_attempt_at), sent, dead (every attempt failed; kept
-- until an operator retries it).
CREATE TABLE mail_outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  recipient text NOT NULL,
  subject text NOT NULL,
  body_text text NOT NULL,
  body_html text,
  state text NOT NULL CHECK (state IN ('held', 'pending', 'sending', 'failed', 'sent', 'dead')),
  attempts integer NOT NULL DEFAULT 0,
  -- The SMTP error of the last failed attempt, with the transport's credentials removed.
  last_error text,
  next_attempt_at timestamptz,
  sent_at timestamptz,
  -- Who wrote it (e.g. occurrences.message, approvals.notification) and about what.
  origin text NOT NULL,
  origin_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- One message per origin, reference and recipient: a caller's retried job writes it once.
  UNIQUE (tenant_id, origin, origin_id, recipient)
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (tenant_id, next_attempt_at) WHERE state IN ('pending', 'sending', 'failed');
CREATE INDEX mail_outbox_state_idx ON mail_outbox (tenant_id, state, id);
SELECT platform_enable_tenant_rls('mail_outbox');

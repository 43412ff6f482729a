-- Issue 13 (items 10 and 13), chat parts (the event-chain part is the events
-- plugin's sql/0002_chain_depth.sql: the two were one file before migrations
-- moved into their plugins).
--
-- 1. A chat session's owner is keyed by principal kind and issuer, and for an
--    API key by the visitor the client names (sessions/caller.ts ownerOf):
--      user:<platform|oidc>:<sub>, service:<sub>, super-admin,
--      api-key:<key id>:visitor:<visitor id>
--    so a user whose sub is `api-key:7` owns nothing of API key 7's sessions,
--    and visitors sharing one key do not share sessions. owner_sub (the bare
--    subject) stays for what reads it (feedback, integrations).
ALTER TABLE chat_sessions ADD COLUMN owner_key text;

-- The backfill reads every tenant's rows: row-level security is forced on the
-- table (it applies to its owner too), so lift the force for this transaction.
ALTER TABLE chat_sessions NO FORCE ROW LEVEL SECURITY;
-- Existing rows: subjects of API keys were `api-key:<id>` shared by every
-- visitor of the key, so no visitor can be told the owner: they get a key no
-- visitor id can produce (kept, no longer reachable through the API key). A
-- subject the platform has a user for is that platform user; any other was an
-- OIDC user (service tokens do not chat).
UPDATE chat_sessions s SET owner_key = CASE
  WHEN s.owner_sub = 'super-admin' THEN 'super-admin'
  WHEN s.owner_sub ~ '^api-key:[0-9]+$' THEN s.owner_sub || ':shared'
  WHEN EXISTS (SELECT 1 FROM users u WHERE u.sub = s.owner_sub) THEN 'user:platform:' || s.owner_sub
  ELSE 'user:oidc:' || s.owner_sub
END;
ALTER TABLE chat_sessions FORCE ROW LEVEL SECURITY;
ALTER TABLE chat_sessions ALTER COLUMN owner_key SET NOT NULL;
DROP INDEX chat_sessions_owner_idx;
CREATE INDEX chat_sessions_owner_idx ON chat_sessions (tenant_id, client_id, owner_key, last_active DESC) WHERE is_active;

-- 2. One row per tenant that starting a turn locks (an upsert), so the count
--    of the tenant's running turns (CHAT_MAX_CONCURRENT_TURNS_PER_TENANT) is
--    taken one start after the other in every process: a row lock, because
--    PGlite does not honour advisory locks.
CREATE TABLE chat_tenant_state (
  tenant_id text PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  touched_at timestamptz NOT NULL DEFAULT now()
);
SELECT platform_enable_tenant_rls('chat_tenant_state');
CREATE INDEX chat_turns_running_idx ON chat_turns (tenant_id) WHERE status IN ('running', 'cancelling');

-- Issue 15 item 4: a session idle longer than sessionIdleTimeoutSeconds ends
-- (is_active false) but stays listed and readable until it is deleted
-- (deleted_at): the owner's list now selects on deleted_at, and the sweep
-- finds the active sessions by their last activity.
DROP INDEX chat_sessions_owner_idx;
CREATE INDEX chat_sessions_owner_idx ON chat_sessions (tenant_id, client_id, owner_key, last_active DESC) WHERE deleted_at IS NULL;
CREATE INDEX chat_sessions_idle_idx ON chat_sessions (tenant_id, last_active) WHERE is_active;

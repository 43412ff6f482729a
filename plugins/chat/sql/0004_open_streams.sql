-- The open SSE streams of each tenant, one row per stream, in every process:
-- CHAT_MAX_CONCURRENT_STREAMS_PER_TENANT counts the rows whose runner (the
-- process holding the socket, chat_runners) is alive, so the limit holds
-- across processes and a dead process's streams stop counting with its
-- heartbeat. A row is written when a stream is admitted (under the tenant's
-- transaction-scoped advisory lock, so concurrent admissions count one after
-- the other) and deleted when the response ends; the sweep deletes rows of
-- runners that are gone.
CREATE TABLE chat_open_streams (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  runner_id uuid NOT NULL,
  opened_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_open_streams_tenant_idx ON chat_open_streams (tenant_id, runner_id);
SELECT platform_enable_tenant_rls('chat_open_streams');

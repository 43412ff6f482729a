-- compose-pipeline executions (spec 4.5: POST /ai/compose-pipeline answers an
-- execution id, GET .../{execution_id}/status polls it): the request, the
-- validated draft or the error. Per tenant under forced row-level security.
CREATE TABLE pipelines_ai_compositions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  request jsonb NOT NULL,
  result jsonb,
  error jsonb,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX pipelines_ai_compositions_tenant ON pipelines_ai_compositions (tenant_id, created_at);
SELECT platform_enable_tenant_rls('pipelines_ai_compositions');

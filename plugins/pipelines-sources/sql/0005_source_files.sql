-- Files uploaded for the csv pattern (CSV or JSON Lines, spec document 3, 4.2:
-- "from a URL or an uploaded file"). The bytes live in PostgreSQL, per tenant
-- under forced row-level security; a source's configuration names one by id.
CREATE TABLE pipeline_source_files (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
  content_type text NOT NULL,
  size_bytes bigint NOT NULL,
  content bytea NOT NULL,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pipeline_source_files_tenant ON pipeline_source_files (tenant_id);
SELECT platform_enable_tenant_rls('pipeline_source_files');

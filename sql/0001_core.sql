-- Core schema: extensions, the tenant role, tenants and platform settings.
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Tenant work runs as this role (SET LOCAL ROLE in withTenant), so row-level
-- security applies even when the platform connects as a superuser or owner.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'platform_tenant') THEN
    CREATE ROLE platform_tenant NOLOGIN NOSUPERUSER NOBYPASSRLS;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL; -- another database of the same cluster created it at the same moment
END $$;

DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'platform_tenant', 'MEMBER') THEN
    EXECUTE format('GRANT platform_tenant TO %I', current_user);
  END IF;
END $$;

CREATE TABLE tenants (
  id text PRIMARY KEY
    CHECK (char_length(id) <= 64 AND (id ~ '^[a-z0-9-]+$' OR id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')),
  display_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE platform_settings (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Makes a table tenant-owned: forced row-level security on app.tenant_id.
-- Every tenant-owned table of every plugin is declared through this function.
CREATE FUNCTION platform_enable_tenant_rls(target regclass) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', target);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', target);
  EXECUTE format(
    'CREATE POLICY tenant_isolation ON %s USING (tenant_id = current_setting(''app.tenant_id'', true)) '
    'WITH CHECK (tenant_id = current_setting(''app.tenant_id'', true))', target);
END $$;

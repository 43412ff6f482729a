-- A tenant's public origins: the web origins (scheme://host[:port]) whose
-- pages may call the tenant's public routes (occurrences, forms, Open311)
-- from a browser. One row per origin, tenant-owned (forced RLS).
CREATE TABLE tenant_public_origins (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  origin text NOT NULL CHECK (length(origin) BETWEEN 1 AND 2048),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, origin)
);
SELECT platform_enable_tenant_rls('tenant_public_origins');

-- The CORS policy of the public routes answers a preflight before any tenant
-- is known (a preflight carries no X-Tenant-ID value): it asks whether some
-- tenant allows the origin. This function is the one cross-tenant read of the
-- table: it returns the (origin, tenant) pairs and nothing else, runs as the
-- migration role (SECURITY DEFINER) and may be called only by the platform's
-- own connection (not the tenant role). Forced row-level security holds for
-- that role too (unless it is a superuser), so it reads each tenant's rows
-- with app.tenant_id set to that tenant, and puts the caller's value back.
CREATE FUNCTION tenancy_public_origin_directory() RETURNS TABLE (origin text, tenant_id text)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  caller_tenant text := current_setting('app.tenant_id', true);
  tenant record;
BEGIN
  FOR tenant IN SELECT t.id FROM public.tenants t LOOP
    PERFORM set_config('app.tenant_id', tenant.id, true);
    RETURN QUERY SELECT p.origin, p.tenant_id FROM public.tenant_public_origins p WHERE p.tenant_id = tenant.id;
  END LOOP;
  PERFORM set_config('app.tenant_id', coalesce(caller_tenant, ''), true);
END $$;
REVOKE ALL ON FUNCTION tenancy_public_origin_directory() FROM PUBLIC;

-- Every tenant has a client from its creation on: the tenancy service creates
-- one named "default" with the tenant, so POST /api/sessions works as soon as
-- the tenant exists. A tenant created before that gets its default client
-- here, when it has no client at all (one that has clients keeps them as they
-- are: its oldest is already its default).
-- clients has forced row-level security: each tenant's rows are looked at and
-- written with app.tenant_id set to that tenant (and the explicit filter keeps
-- the check right for a connection that bypasses row-level security).
DO $$
DECLARE t record;
BEGIN
  FOR t IN SELECT id FROM tenants ORDER BY id LOOP
    PERFORM set_config('app.tenant_id', t.id, true);
    IF NOT EXISTS (SELECT 1 FROM clients WHERE tenant_id = t.id) THEN
      INSERT INTO clients (tenant_id, client_key, name)
      VALUES (t.id, 'ck_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24), 'default');
    END IF;
  END LOOP;
  PERFORM set_config('app.tenant_id', '', true);
END $$;

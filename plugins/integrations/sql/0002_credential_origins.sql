-- Issue 13 (item 2), integrations: every sealed credential is bound to the
-- origin it was given for, so a re-import or sync that moves a spec to
-- another server does not send it there (plugins/integrations/origin-binding.ts).
--
-- A binding is `scheme://host:port` of the spec's base URL (the port always
-- written), `(none)` when the spec has no URL, and for oauth2 specs also
-- ` token=scheme://host:port` of the token URL. Values sealed from now on
-- carry it in their AES-GCM associated data as well; the rows below were
-- sealed before, so their binding is recorded beside them from the spec as
-- it is now: they keep working for their current origin, and only there.
ALTER TABLE integration_specs ADD COLUMN auth_value_origin text;
-- NULL: bound to nothing (a credential whose spec no longer exists); never sent.
ALTER TABLE integration_client_credentials ADD COLUMN bound_origin text;
ALTER TABLE integration_session_credentials ADD COLUMN bound_origin text;
-- A secret is bound to the specs that named its key when it was stored.
ALTER TABLE integration_secrets ADD COLUMN bound_origins text[] NOT NULL DEFAULT '{}';

-- The same canonical form as originOf() in origin-binding.ts, for stored
-- URLs (WHATWG-normalized: lower-case scheme and host, default port left out).
CREATE FUNCTION pg_temp.integration_origin(url text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN m IS NULL THEN '(none)'
    ELSE m[1] || '://' || m[2] || ':' || coalesce(m[3], CASE m[1] WHEN 'https' THEN '443' ELSE '80' END) END
  FROM (SELECT regexp_match(url, '^(https?)://(?:[^/?#@]*@)?(\[[^]/?#]*\]|[^/?#:]*)(?::([0-9]+))?') AS m) AS parsed
$$;
CREATE FUNCTION pg_temp.integration_binding(base_url text, auth jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT pg_temp.integration_origin(base_url)
    || CASE WHEN auth->>'scheme' = 'oauth2' THEN ' token=' || pg_temp.integration_origin(auth->>'token_url') ELSE '' END
$$;

-- The backfill reads every tenant's rows: row-level security is forced on
-- these tables (it applies to their owner too), so lift the force for this
-- transaction.
ALTER TABLE integration_specs NO FORCE ROW LEVEL SECURITY;
ALTER TABLE integration_client_credentials NO FORCE ROW LEVEL SECURITY;
ALTER TABLE integration_session_credentials NO FORCE ROW LEVEL SECURITY;
ALTER TABLE integration_secrets NO FORCE ROW LEVEL SECURITY;

UPDATE integration_specs SET auth_value_origin = pg_temp.integration_binding(base_url, auth)
 WHERE auth_value_sealed IS NOT NULL;
UPDATE integration_client_credentials c SET bound_origin = pg_temp.integration_binding(s.base_url, s.auth)
  FROM integration_specs s WHERE s.tenant_id = c.tenant_id AND s.name = c.service_name;
UPDATE integration_session_credentials c SET bound_origin = pg_temp.integration_binding(s.base_url, s.auth)
  FROM integration_specs s WHERE s.tenant_id = c.tenant_id AND s.name = c.service_name;
UPDATE integration_secrets v SET bound_origins = coalesce((
  SELECT array_agg(DISTINCT pg_temp.integration_binding(s.base_url, s.auth) ORDER BY pg_temp.integration_binding(s.base_url, s.auth))
    FROM integration_specs s WHERE s.tenant_id = v.tenant_id AND s.auth->>'credential_source' = v.key), '{}');

ALTER TABLE integration_specs FORCE ROW LEVEL SECURITY;
ALTER TABLE integration_client_credentials FORCE ROW LEVEL SECURITY;
ALTER TABLE integration_session_credentials FORCE ROW LEVEL SECURITY;
ALTER TABLE integration_secrets FORCE ROW LEVEL SECURITY;
-- PGlite shares one session between connections: leave no temporary function behind.
DROP FUNCTION pg_temp.integration_binding(text, jsonb);
DROP FUNCTION pg_temp.integration_origin(text);

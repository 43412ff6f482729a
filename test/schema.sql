CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public;

CREATE FUNCTION public.platform_add_job(p_identifier text, p_payload json, p_queue_name text, p_run_at timestamp with time zone, p_max_attempts integer, p_job_key text, p_job_key_mode text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog'
    AS $$
BEGIN
  PERFORM graphile_worker.add_job(
    identifier => p_identifier, payload => p_payload, queue_name => p_queue_name, run_at => p_run_at,
    max_attempts => p_max_attempts, job_key => p_job_key, job_key_mode => p_job_key_mode);
END $$;

CREATE FUNCTION public.platform_enable_tenant_rls(target regclass) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', target);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', target);
  EXECUTE format(
    'CREATE POLICY tenant_isolation ON %s USING (tenant_id = current_setting(''app.tenant_id'', true)) '
    'WITH CHECK (tenant_id = current_setting(''app.tenant_id'', true))', target);
END $$;

CREATE FUNCTION public.platform_remove_job(p_job_key text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog'
    AS $$
BEGIN
  PERFORM graphile_worker.remove_job(p_job_key);
END $$;

CREATE TABLE public.api_keys (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    client_id bigint NOT NULL,
    name text NOT NULL,
    key_prefix text NOT NULL,
    key_hash text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_used_at timestamp with time zone,
    revoked_at timestamp with time zone
);

ALTER TABLE ONLY public.api_keys FORCE ROW LEVEL SECURITY;

ALTER TABLE public.api_keys ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.api_keys_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.clients (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    client_key text NOT NULL,
    name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.clients FORCE ROW LEVEL SECURITY;

ALTER TABLE public.clients ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.clients_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.platform_migrations (
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.platform_settings (
    key text NOT NULL,
    value text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.tenants (
    id text NOT NULL,
    display_name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT tenants_id_check CHECK (((char_length(id) <= 64) AND ((id ~ '^[a-z0-9-]+$'::text) OR (id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text))))
);

CREATE TABLE public.users (
    sub text NOT NULL,
    display_name text NOT NULL,
    organizations jsonb DEFAULT '{}'::jsonb NOT NULL,
    service_account boolean DEFAULT false NOT NULL,
    secret_hash text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT users_sub_check CHECK (((char_length(sub) >= 1) AND (char_length(sub) <= 255)))
);

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash);

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.clients
    ADD CONSTRAINT clients_client_key_key UNIQUE (client_key);

ALTER TABLE ONLY public.clients
    ADD CONSTRAINT clients_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.platform_migrations
    ADD CONSTRAINT platform_migrations_pkey PRIMARY KEY (name);

ALTER TABLE ONLY public.platform_settings
    ADD CONSTRAINT platform_settings_pkey PRIMARY KEY (key);

ALTER TABLE ONLY public.tenants
    ADD CONSTRAINT tenants_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (sub);

CREATE INDEX api_keys_tenant_idx ON public.api_keys USING btree (tenant_id, id);

CREATE INDEX clients_tenant_idx ON public.clients USING btree (tenant_id, id);

CREATE INDEX users_organizations_idx ON public.users USING gin (organizations);

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_client_id_fkey FOREIGN KEY (client_id) REFERENCES public.clients(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.clients
    ADD CONSTRAINT clients_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE public.api_keys ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.clients ENABLE ROW LEVEL SECURITY;

CREATE POLICY tenant_isolation ON public.api_keys USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.clients USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

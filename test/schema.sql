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

CREATE TABLE public.event_cursors (
    tenant_id text NOT NULL,
    dispatched_seq bigint DEFAULT 0 NOT NULL,
    dispatched_at timestamp with time zone
);

ALTER TABLE ONLY public.event_cursors FORCE ROW LEVEL SECURITY;

CREATE TABLE public.event_streams (
    tenant_id text NOT NULL,
    last_seq bigint DEFAULT 0 NOT NULL,
    dispatch_queued boolean DEFAULT false NOT NULL,
    queued_before boolean DEFAULT false NOT NULL
);

ALTER TABLE ONLY public.event_streams FORCE ROW LEVEL SECURITY;

CREATE TABLE public.event_types_custom (
    tenant_id text NOT NULL,
    type text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    sample_payload jsonb,
    schema jsonb,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT event_types_custom_type_check CHECK (((char_length(type) >= 1) AND (char_length(type) <= 200)))
);

ALTER TABLE ONLY public.event_types_custom FORCE ROW LEVEL SECURITY;

CREATE TABLE public.events (
    tenant_id text NOT NULL,
    seq bigint NOT NULL,
    id text NOT NULL,
    type text NOT NULL,
    source text NOT NULL,
    "time" timestamp with time zone NOT NULL,
    data jsonb DEFAULT '{}'::jsonb NOT NULL,
    CONSTRAINT events_id_check CHECK (((char_length(id) >= 1) AND (char_length(id) <= 200))),
    CONSTRAINT events_source_check CHECK (((char_length(source) >= 1) AND (char_length(source) <= 500))),
    CONSTRAINT events_type_check CHECK (((char_length(type) >= 1) AND (char_length(type) <= 200)))
);

ALTER TABLE ONLY public.events FORCE ROW LEVEL SECURITY;

CREATE TABLE public.integration_client_credentials (
    tenant_id text NOT NULL,
    client_id bigint NOT NULL,
    service_name text NOT NULL,
    header text,
    value_sealed text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.integration_client_credentials FORCE ROW LEVEL SECURITY;

CREATE TABLE public.integration_functions (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    spec_id uuid NOT NULL,
    name text NOT NULL,
    operation_key text NOT NULL,
    operation_id text,
    method text NOT NULL,
    path text NOT NULL,
    summary text DEFAULT ''::text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    description_edited boolean DEFAULT false NOT NULL,
    parameters jsonb NOT NULL,
    json_schema jsonb NOT NULL,
    request jsonb NOT NULL,
    security jsonb,
    status text DEFAULT 'active'::text NOT NULL,
    warnings jsonb DEFAULT '[]'::jsonb NOT NULL,
    version integer DEFAULT 1 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    removed_at timestamp with time zone,
    CONSTRAINT integration_functions_name_check CHECK ((name ~ '^[a-z][a-z0-9_]{0,63}$'::text)),
    CONSTRAINT integration_functions_status_check CHECK ((status = ANY (ARRAY['active'::text, 'removed'::text])))
);

ALTER TABLE ONLY public.integration_functions FORCE ROW LEVEL SECURITY;

ALTER TABLE public.integration_functions ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.integration_functions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.integration_secrets (
    tenant_id text NOT NULL,
    key text NOT NULL,
    value_sealed text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT integration_secrets_key_check CHECK ((key ~ '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$'::text))
);

ALTER TABLE ONLY public.integration_secrets FORCE ROW LEVEL SECURITY;

CREATE TABLE public.integration_session_credentials (
    tenant_id text NOT NULL,
    session_id text NOT NULL,
    service_name text NOT NULL,
    header text,
    value_sealed text NOT NULL,
    owner_sub text NOT NULL,
    expires_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.integration_session_credentials FORCE ROW LEVEL SECURITY;

CREATE TABLE public.integration_specs (
    id uuid NOT NULL,
    tenant_id text NOT NULL,
    name text NOT NULL,
    prefix text DEFAULT ''::text NOT NULL,
    source_kind text NOT NULL,
    source_url text,
    document text,
    content_hash text NOT NULL,
    format text NOT NULL,
    title text DEFAULT ''::text NOT NULL,
    api_version text DEFAULT ''::text NOT NULL,
    base_url text,
    settings jsonb DEFAULT '{}'::jsonb NOT NULL,
    auth jsonb DEFAULT '{"scheme": "none"}'::jsonb NOT NULL,
    auth_value_sealed text,
    status text DEFAULT 'active'::text NOT NULL,
    warnings jsonb DEFAULT '[]'::jsonb NOT NULL,
    last_sync_at timestamp with time zone,
    last_sync_result text,
    last_error text,
    version integer DEFAULT 1 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT integration_specs_format_check CHECK ((format = ANY (ARRAY['swagger-2.0'::text, 'openapi-3.0'::text, 'openapi-3.1'::text]))),
    CONSTRAINT integration_specs_last_sync_result_check CHECK ((last_sync_result = ANY (ARRAY['imported'::text, 'synced'::text, 'skipped'::text, 'failed'::text]))),
    CONSTRAINT integration_specs_name_check CHECK ((name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$'::text)),
    CONSTRAINT integration_specs_source_kind_check CHECK ((source_kind = ANY (ARRAY['url'::text, 'file'::text, 'inline'::text]))),
    CONSTRAINT integration_specs_status_check CHECK ((status = ANY (ARRAY['active'::text, 'sync_failed'::text])))
);

ALTER TABLE ONLY public.integration_specs FORCE ROW LEVEL SECURITY;

CREATE TABLE public.platform_job_workers (
    worker_id text NOT NULL,
    heartbeat_at timestamp with time zone DEFAULT now() NOT NULL
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

CREATE TABLE public.trigger_backfills (
    id uuid NOT NULL,
    tenant_id text NOT NULL,
    trigger_name text NOT NULL,
    request jsonb NOT NULL,
    result jsonb,
    error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone
);

ALTER TABLE ONLY public.trigger_backfills FORCE ROW LEVEL SECURITY;

CREATE TABLE public.trigger_dedup (
    tenant_id text NOT NULL,
    trigger_name text NOT NULL,
    dedup_key text NOT NULL,
    window_start timestamp with time zone NOT NULL,
    event_id text
);

ALTER TABLE ONLY public.trigger_dedup FORCE ROW LEVEL SECURITY;

CREATE TABLE public.trigger_dispatches (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    trigger_name text NOT NULL,
    origin text NOT NULL,
    status text NOT NULL,
    event_id text,
    event_seq bigint,
    dedup_key text,
    execution_id text,
    error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT trigger_dispatches_origin_check CHECK ((origin = ANY (ARRAY['event'::text, 'schedule'::text, 'deadman'::text, 'backfill'::text]))),
    CONSTRAINT trigger_dispatches_status_check CHECK ((status = ANY (ARRAY['started'::text, 'deduplicated'::text, 'failed'::text, 'missed'::text])))
);

ALTER TABLE ONLY public.trigger_dispatches FORCE ROW LEVEL SECURITY;

ALTER TABLE public.trigger_dispatches ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.trigger_dispatches_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.triggers (
    tenant_id text NOT NULL,
    name text NOT NULL,
    kind text NOT NULL,
    event_type text NOT NULL,
    event_filter jsonb,
    target_type text DEFAULT 'workflow'::text NOT NULL,
    target_name text NOT NULL,
    input_mapping jsonb,
    active boolean DEFAULT true NOT NULL,
    dedup_key text,
    dedup_window_seconds integer DEFAULT 300 NOT NULL,
    schedule_config jsonb,
    deadman_config jsonb,
    next_fire_at timestamp with time zone,
    deadman_deadline timestamp with time zone,
    last_fired_at timestamp with time zone,
    listen_after_seq bigint DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT triggers_check CHECK (((schedule_config IS NULL) OR (deadman_config IS NULL))),
    CONSTRAINT triggers_check1 CHECK (((kind = 'scheduled'::text) = (schedule_config IS NOT NULL))),
    CONSTRAINT triggers_check2 CHECK (((kind = 'deadman'::text) = (deadman_config IS NOT NULL))),
    CONSTRAINT triggers_dedup_window_seconds_check CHECK ((dedup_window_seconds > 0)),
    CONSTRAINT triggers_kind_check CHECK ((kind = ANY (ARRAY['reactive'::text, 'scheduled'::text, 'deadman'::text]))),
    CONSTRAINT triggers_name_check CHECK (((char_length(name) <= 100) AND (name ~ '^[a-z0-9]+(-[a-z0-9]+)*$'::text))),
    CONSTRAINT triggers_target_type_check CHECK ((target_type = 'workflow'::text))
);

ALTER TABLE ONLY public.triggers FORCE ROW LEVEL SECURITY;

CREATE TABLE public.users (
    sub text NOT NULL,
    display_name text NOT NULL,
    organizations jsonb DEFAULT '{}'::jsonb NOT NULL,
    service_account boolean DEFAULT false NOT NULL,
    secret_hash text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT users_sub_check CHECK (((char_length(sub) >= 1) AND (char_length(sub) <= 255)))
);

CREATE TABLE public.webhook_definitions (
    tenant_id text NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    secret_hash text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    rotated_at timestamp with time zone
);

ALTER TABLE ONLY public.webhook_definitions FORCE ROW LEVEL SECURITY;

CREATE TABLE public.webhook_deliveries (
    tenant_id text NOT NULL,
    scope text NOT NULL,
    webhook_id text NOT NULL,
    received_at timestamp with time zone NOT NULL
);

ALTER TABLE ONLY public.webhook_deliveries FORCE ROW LEVEL SECURITY;

CREATE TABLE public.webhook_rate (
    tenant_id text NOT NULL,
    window_start timestamp with time zone NOT NULL,
    count integer NOT NULL
);

ALTER TABLE ONLY public.webhook_rate FORCE ROW LEVEL SECURITY;

CREATE TABLE public.webhook_signing_secrets (
    tenant_id text NOT NULL,
    sealed_secret text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    rotated_at timestamp with time zone
);

ALTER TABLE ONLY public.webhook_signing_secrets FORCE ROW LEVEL SECURITY;

CREATE TABLE public.workflow_definitions (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    steps jsonb NOT NULL,
    version integer DEFAULT 1 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT workflow_definitions_name_check CHECK ((name ~ '^[a-z0-9][a-z0-9_-]{0,127}$'::text))
);

ALTER TABLE ONLY public.workflow_definitions FORCE ROW LEVEL SECURITY;

ALTER TABLE public.workflow_definitions ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.workflow_definitions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.workflow_executions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    workflow_name text NOT NULL,
    workflow_version integer NOT NULL,
    definition jsonb NOT NULL,
    inputs jsonb DEFAULT '{}'::jsonb NOT NULL,
    status text DEFAULT 'running'::text NOT NULL,
    state jsonb,
    step_seq integer DEFAULT 0 NOT NULL,
    origin jsonb DEFAULT '{"type": "api"}'::jsonb NOT NULL,
    error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    CONSTRAINT workflow_executions_status_check CHECK ((status = ANY (ARRAY['running'::text, 'waiting'::text, 'completed'::text, 'failed'::text, 'cancelled'::text])))
);

ALTER TABLE ONLY public.workflow_executions FORCE ROW LEVEL SECURITY;

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash);

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.clients
    ADD CONSTRAINT clients_client_key_key UNIQUE (client_key);

ALTER TABLE ONLY public.clients
    ADD CONSTRAINT clients_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.event_cursors
    ADD CONSTRAINT event_cursors_pkey PRIMARY KEY (tenant_id);

ALTER TABLE ONLY public.event_streams
    ADD CONSTRAINT event_streams_pkey PRIMARY KEY (tenant_id);

ALTER TABLE ONLY public.event_types_custom
    ADD CONSTRAINT event_types_custom_pkey PRIMARY KEY (tenant_id, type);

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (tenant_id, seq);

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_tenant_id_source_id_key UNIQUE (tenant_id, source, id);

ALTER TABLE ONLY public.integration_client_credentials
    ADD CONSTRAINT integration_client_credentials_pkey PRIMARY KEY (tenant_id, client_id, service_name);

ALTER TABLE ONLY public.integration_functions
    ADD CONSTRAINT integration_functions_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.integration_functions
    ADD CONSTRAINT integration_functions_spec_id_operation_key_key UNIQUE (spec_id, operation_key);

ALTER TABLE ONLY public.integration_functions
    ADD CONSTRAINT integration_functions_tenant_id_name_key UNIQUE (tenant_id, name) DEFERRABLE INITIALLY DEFERRED;

ALTER TABLE ONLY public.integration_secrets
    ADD CONSTRAINT integration_secrets_pkey PRIMARY KEY (tenant_id, key);

ALTER TABLE ONLY public.integration_session_credentials
    ADD CONSTRAINT integration_session_credentials_pkey PRIMARY KEY (tenant_id, session_id, service_name);

ALTER TABLE ONLY public.integration_specs
    ADD CONSTRAINT integration_specs_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.integration_specs
    ADD CONSTRAINT integration_specs_tenant_id_name_key UNIQUE (tenant_id, name);

ALTER TABLE ONLY public.platform_job_workers
    ADD CONSTRAINT platform_job_workers_pkey PRIMARY KEY (worker_id);

ALTER TABLE ONLY public.platform_migrations
    ADD CONSTRAINT platform_migrations_pkey PRIMARY KEY (name);

ALTER TABLE ONLY public.platform_settings
    ADD CONSTRAINT platform_settings_pkey PRIMARY KEY (key);

ALTER TABLE ONLY public.tenants
    ADD CONSTRAINT tenants_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.trigger_backfills
    ADD CONSTRAINT trigger_backfills_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.trigger_dedup
    ADD CONSTRAINT trigger_dedup_pkey PRIMARY KEY (tenant_id, trigger_name, dedup_key);

ALTER TABLE ONLY public.trigger_dispatches
    ADD CONSTRAINT trigger_dispatches_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.triggers
    ADD CONSTRAINT triggers_pkey PRIMARY KEY (tenant_id, name);

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (sub);

ALTER TABLE ONLY public.webhook_definitions
    ADD CONSTRAINT webhook_definitions_pkey PRIMARY KEY (tenant_id, name);

ALTER TABLE ONLY public.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (tenant_id, scope, webhook_id);

ALTER TABLE ONLY public.webhook_rate
    ADD CONSTRAINT webhook_rate_pkey PRIMARY KEY (tenant_id, window_start);

ALTER TABLE ONLY public.webhook_signing_secrets
    ADD CONSTRAINT webhook_signing_secrets_pkey PRIMARY KEY (tenant_id);

ALTER TABLE ONLY public.workflow_definitions
    ADD CONSTRAINT workflow_definitions_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.workflow_definitions
    ADD CONSTRAINT workflow_definitions_tenant_id_name_key UNIQUE (tenant_id, name);

ALTER TABLE ONLY public.workflow_executions
    ADD CONSTRAINT workflow_executions_pkey PRIMARY KEY (id);

CREATE INDEX api_keys_tenant_idx ON public.api_keys USING btree (tenant_id, id);

CREATE INDEX clients_tenant_idx ON public.clients USING btree (tenant_id, id);

CREATE INDEX events_time_idx ON public.events USING btree (tenant_id, "time");

CREATE INDEX events_type_idx ON public.events USING btree (tenant_id, type, seq);

CREATE INDEX integration_functions_spec_idx ON public.integration_functions USING btree (tenant_id, spec_id, name);

CREATE INDEX trigger_dedup_window_idx ON public.trigger_dedup USING btree (tenant_id, window_start);

CREATE INDEX trigger_dispatches_created_idx ON public.trigger_dispatches USING btree (tenant_id, created_at);

CREATE INDEX trigger_dispatches_execution_idx ON public.trigger_dispatches USING btree (tenant_id, execution_id) WHERE (execution_id IS NOT NULL);

CREATE INDEX trigger_dispatches_trigger_idx ON public.trigger_dispatches USING btree (tenant_id, trigger_name, id DESC);

CREATE INDEX triggers_active_idx ON public.triggers USING btree (tenant_id, kind) WHERE active;

CREATE INDEX users_organizations_idx ON public.users USING gin (organizations);

CREATE INDEX webhook_deliveries_received_idx ON public.webhook_deliveries USING btree (tenant_id, received_at);

CREATE INDEX workflow_executions_recent_idx ON public.workflow_executions USING btree (tenant_id, created_at DESC, id DESC);

CREATE INDEX workflow_executions_status_idx ON public.workflow_executions USING btree (tenant_id, status, created_at DESC);

CREATE INDEX workflow_executions_workflow_idx ON public.workflow_executions USING btree (tenant_id, workflow_name, created_at DESC);

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_client_id_fkey FOREIGN KEY (client_id) REFERENCES public.clients(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.clients
    ADD CONSTRAINT clients_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.event_cursors
    ADD CONSTRAINT event_cursors_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.event_streams
    ADD CONSTRAINT event_streams_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.event_types_custom
    ADD CONSTRAINT event_types_custom_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.integration_client_credentials
    ADD CONSTRAINT integration_client_credentials_client_id_fkey FOREIGN KEY (client_id) REFERENCES public.clients(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.integration_client_credentials
    ADD CONSTRAINT integration_client_credentials_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.integration_functions
    ADD CONSTRAINT integration_functions_spec_id_fkey FOREIGN KEY (spec_id) REFERENCES public.integration_specs(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.integration_functions
    ADD CONSTRAINT integration_functions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.integration_secrets
    ADD CONSTRAINT integration_secrets_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.integration_session_credentials
    ADD CONSTRAINT integration_session_credentials_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.integration_specs
    ADD CONSTRAINT integration_specs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.trigger_backfills
    ADD CONSTRAINT trigger_backfills_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.trigger_dedup
    ADD CONSTRAINT trigger_dedup_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.trigger_dedup
    ADD CONSTRAINT trigger_dedup_tenant_id_trigger_name_fkey FOREIGN KEY (tenant_id, trigger_name) REFERENCES public.triggers(tenant_id, name) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY public.trigger_dispatches
    ADD CONSTRAINT trigger_dispatches_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.trigger_dispatches
    ADD CONSTRAINT trigger_dispatches_tenant_id_trigger_name_fkey FOREIGN KEY (tenant_id, trigger_name) REFERENCES public.triggers(tenant_id, name) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY public.triggers
    ADD CONSTRAINT triggers_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.webhook_definitions
    ADD CONSTRAINT webhook_definitions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.webhook_rate
    ADD CONSTRAINT webhook_rate_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.webhook_signing_secrets
    ADD CONSTRAINT webhook_signing_secrets_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.workflow_definitions
    ADD CONSTRAINT workflow_definitions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.workflow_executions
    ADD CONSTRAINT workflow_executions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE public.api_keys ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.clients ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.event_cursors ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.event_streams ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.event_types_custom ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.events ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.integration_client_credentials ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.integration_functions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.integration_secrets ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.integration_session_credentials ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.integration_specs ENABLE ROW LEVEL SECURITY;

CREATE POLICY tenant_isolation ON public.api_keys USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.clients USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.event_cursors USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.event_streams USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.event_types_custom USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.events USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.integration_client_credentials USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.integration_functions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.integration_secrets USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.integration_session_credentials USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.integration_specs USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.trigger_backfills USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.trigger_dedup USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.trigger_dispatches USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.triggers USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.webhook_definitions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.webhook_deliveries USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.webhook_rate USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.webhook_signing_secrets USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.workflow_definitions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.workflow_executions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

ALTER TABLE public.trigger_backfills ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.trigger_dedup ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.trigger_dispatches ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.triggers ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.webhook_definitions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.webhook_deliveries ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.webhook_rate ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.webhook_signing_secrets ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.workflow_definitions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.workflow_executions ENABLE ROW LEVEL SECURITY;

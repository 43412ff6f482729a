CREATE SCHEMA console;

CREATE SCHEMA derived;

CREATE SCHEMA raw;

CREATE SCHEMA registry;

CREATE SCHEMA sandbox;

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public;

CREATE FUNCTION public.forms_submission_immutable() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF NEW.redacted_at IS NULL OR NEW.redacted_at IS NOT DISTINCT FROM OLD.redacted_at
     OR NEW.id <> OLD.id OR NEW.use_case_id <> OLD.use_case_id OR NEW.definition_id <> OLD.definition_id
     OR NEW.form_version <> OLD.form_version OR NEW.created_at <> OLD.created_at THEN
    RAISE EXCEPTION 'submission % is immutable (only a redaction may change it)', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;

CREATE FUNCTION public.forms_version_immutable() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  RAISE EXCEPTION 'form version % of % is immutable', OLD.version, OLD.definition_id USING ERRCODE = 'check_violation';
END $$;

CREATE FUNCTION public.ingestion_fuzzy_terms(p_words text[], p_min_similarity real, p_per_word integer) RETURNS TABLE(word text, term text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public'
    AS $$
  SELECT w.word, s.term FROM unnest(p_words) AS w (word)
  CROSS JOIN LATERAL (
    SELECT t.term FROM public.ingestion_terms t
    WHERE t.tenant_id = current_setting('app.tenant_id', true)
      AND NOT EXISTS (SELECT 1 FROM public.ingestion_terms e WHERE e.tenant_id = current_setting('app.tenant_id', true) AND e.term = w.word)
      AND t.term % w.word AND similarity(t.term, w.word) >= p_min_similarity
    ORDER BY similarity(t.term, w.word) DESC, t.term
    LIMIT p_per_word
  ) s
$$;

CREATE FUNCTION public.ingestion_keyword_candidates(p_english tsquery, p_portuguese tsquery, p_collections integer[], p_max_matches integer, p_limit integer) RETURNS TABLE(id uuid, rank real)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public'
    AS $$
  SELECT m.id, ts_rank_cd(m.tsv, CASE WHEN m.ts_config = 'portuguese'::regconfig THEN p_portuguese ELSE p_english END, 1) AS rank
  FROM (
    SELECT c.id, c.tsv, c.ts_config FROM public.ingestion_chunks c
    WHERE c.tenant_id = current_setting('app.tenant_id', true)
      AND c.is_current
      AND ((c.ts_config = 'english'::regconfig AND c.tsv @@ p_english) OR (c.ts_config = 'portuguese'::regconfig AND c.tsv @@ p_portuguese))
      AND (p_collections IS NULL OR c.collection_id = ANY (p_collections))
    LIMIT p_max_matches
  ) m
  ORDER BY rank DESC, m.id
  LIMIT p_limit
$$;

CREATE FUNCTION public.ingestion_revision_immutable() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF OLD.status <> 'building' THEN
    RAISE EXCEPTION 'revision % is % and immutable', OLD.id, OLD.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;

CREATE FUNCTION public.lake_bulk_load_begin(p_dataset bigint, p_snapshot bigint) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public'
    AS $$
DECLARE
  t record;
  tenant text := current_setting('app.tenant_id', true);
  has_rows boolean;
BEGIN
  SELECT * INTO t FROM lake_key_index_target(p_dataset);
  EXECUTE format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', t.relation);
  -- The owner sees every row once the policy is not forced on it.
  EXECUTE format('ALTER TABLE %s NO FORCE ROW LEVEL SECURITY', t.relation);
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s)', t.relation) INTO has_rows;
  IF has_rows THEN
    EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', t.relation);
    RETURN false;
  END IF;
  EXECUTE format(
    'ALTER TABLE %s DISABLE ROW LEVEL SECURITY,
       ALTER COLUMN _tenant_id SET DEFAULT %L, ALTER COLUMN _snapshot_from SET DEFAULT %s,
       ADD CONSTRAINT lake_bulk_load CHECK (_tenant_id = %L AND _snapshot_from = %s AND _snapshot_to IS NULL)',
    t.relation, tenant, p_snapshot, tenant, p_snapshot);
  -- Built once after the rows (lake_bulk_load_end) instead of an insertion per row.
  IF t.key_columns IS NOT NULL THEN
    EXECUTE format('DROP INDEX IF EXISTS %I.%I', t.schema_name, t.index_name);
  END IF;
  RETURN true;
END $$;

CREATE FUNCTION public.lake_bulk_load_end(p_dataset bigint) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public'
    SET default_statistics_target TO '10'
    AS $$
DECLARE
  t record;
BEGIN
  SELECT * INTO t FROM lake_key_index_target(p_dataset);
  EXECUTE format(
    'ALTER TABLE %s DROP CONSTRAINT lake_bulk_load,
       ALTER COLUMN _tenant_id SET DEFAULT current_setting(''app.tenant_id''), ALTER COLUMN _snapshot_from DROP DEFAULT,
       ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY',
    t.relation);
  IF t.key_columns IS NOT NULL THEN
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %s (%s) WHERE _snapshot_to IS NULL', t.index_name, t.relation, t.key_columns);
  END IF;
  EXECUTE format('ANALYZE %s', t.relation);
END $$;

CREATE FUNCTION public.lake_create_key_index(p_dataset bigint) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public'
    AS $$
DECLARE
  t record;
BEGIN
  SELECT * INTO t FROM lake_key_index_target(p_dataset);
  IF t.key_columns IS NULL THEN RETURN; END IF;
  EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %s (%s) WHERE _snapshot_to IS NULL', t.index_name, t.relation, t.key_columns);
END $$;

CREATE FUNCTION public.lake_drop_key_index(p_dataset bigint) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public'
    AS $$
DECLARE
  t record;
BEGIN
  SELECT * INTO t FROM lake_key_index_target(p_dataset);
  IF t.key_columns IS NULL OR to_regclass(format('%I.%I', t.schema_name, t.index_name)) IS NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('DROP INDEX %I.%I', t.schema_name, t.index_name);
  RETURN true;
END $$;

CREATE FUNCTION public.lake_key_index_target(p_dataset bigint, OUT schema_name text, OUT relation text, OUT index_name text, OUT key_columns text) RETURNS record
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public'
    AS $$
DECLARE
  d record;
BEGIN
  SELECT namespace, physical_table, columns, primary_key, tenant_id INTO d FROM lake_datasets WHERE id = p_dataset;
  IF NOT FOUND OR d.tenant_id IS DISTINCT FROM current_setting('app.tenant_id', true) THEN
    RAISE EXCEPTION 'dataset % is not the acting tenant''s', p_dataset USING ERRCODE = '42501';
  END IF;
  schema_name := d.namespace;
  relation := format('%I.%I', d.namespace, d.physical_table);
  index_name := 'lake_key_' || left(encode(sha256(convert_to(d.namespace || '.' || d.physical_table, 'UTF8')), 'hex'), 24);
  SELECT string_agg(format('%I', c->>'column'), ', ' ORDER BY k.ord) INTO key_columns
    FROM unnest(d.primary_key) WITH ORDINALITY AS k(name, ord)
    JOIN jsonb_array_elements(d.columns) AS c ON c->>'name' = k.name;
END $$;

CREATE FUNCTION public.pipeline_sources_drop_schedule() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  DELETE FROM schedules WHERE tenant_id = OLD.tenant_id AND kind = 'pipelines-sources.source' AND subject = OLD.id::text;
  RETURN OLD;
END $$;

CREATE FUNCTION public.pipelines_drop_schedule() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  DELETE FROM schedules WHERE tenant_id = OLD.tenant_id AND kind = 'pipelines.pipeline' AND subject = OLD.id::text;
  RETURN OLD;
END $$;

CREATE FUNCTION public.platform_add_job(p_identifier text, p_payload json, p_queue_name text, p_run_at timestamp with time zone, p_max_attempts integer, p_job_key text, p_job_key_mode text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog'
    AS $$
BEGIN
  PERFORM graphile_worker.add_job(
    identifier => p_identifier, payload => p_payload, queue_name => p_queue_name, run_at => p_run_at,
    max_attempts => p_max_attempts, job_key => p_job_key, job_key_mode => p_job_key_mode);
END $$;

CREATE FUNCTION public.platform_add_jobs(p_specs json) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog'
    AS $$
BEGIN
  PERFORM graphile_worker.add_jobs(ARRAY(
    SELECT s FROM json_populate_recordset(NULL::graphile_worker.job_spec, p_specs) AS s
  ));
END $$;

CREATE FUNCTION public.platform_arm_schedule_timers(p_kind text) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF to_regnamespace('graphile_worker') IS NULL THEN RETURN; END IF;
  PERFORM graphile_worker.add_job(
    identifier => 'core.schedule_fire',
    payload => json_build_object('tenant_id', s.tenant_id, 'kind', s.kind, 'subject', s.subject,
      'scheduled_time', to_char(s.next_run_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
    run_at => s.next_run_at,
    job_key => 'schedule:' || s.kind || ':' || s.tenant_id || ':' || s.subject)
  FROM schedules s WHERE s.kind = p_kind AND NOT s.paused AND s.next_run_at IS NOT NULL;
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

CREATE FUNCTION public.platform_remove_jobs_by_key_prefix(p_prefix text) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF to_regnamespace('graphile_worker') IS NULL THEN RETURN; END IF;
  PERFORM graphile_worker.remove_job(j.key) FROM graphile_worker._private_jobs j WHERE starts_with(j.key, p_prefix);
END $$;

CREATE FUNCTION public.tenancy_public_origin_directory() RETURNS TABLE(origin text, tenant_id text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public'
    AS $$
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

CREATE FUNCTION public.transforms_drop_schedule() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  DELETE FROM schedules WHERE tenant_id = OLD.tenant_id AND kind = 'pipelines-transforms.transform' AND subject = OLD.id::text;
  RETURN OLD;
END $$;

CREATE FUNCTION public.triggers_drop_schedule() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  DELETE FROM schedules WHERE tenant_id = OLD.tenant_id AND kind = 'events.trigger' AND subject = OLD.name;
  RETURN OLD;
END $$;

CREATE TABLE console.link_codes (
    code_hash text NOT NULL,
    sub text NOT NULL,
    tenant text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    CONSTRAINT link_codes_sub_check CHECK (((char_length(sub) >= 1) AND (char_length(sub) <= 255)))
);

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

CREATE TABLE public.approval_cases (
    id uuid NOT NULL,
    tenant_id text NOT NULL,
    title text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    payload jsonb DEFAULT '{}'::jsonb NOT NULL,
    source jsonb NOT NULL,
    source_type text NOT NULL,
    approvers jsonb NOT NULL,
    approver_roles text[] DEFAULT '{}'::text[] NOT NULL,
    approver_users text[] DEFAULT '{}'::text[] NOT NULL,
    quorum integer DEFAULT 1 NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    decisions jsonb DEFAULT '[]'::jsonb NOT NULL,
    requested_by text NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    resolved_at timestamp with time zone,
    CONSTRAINT approval_cases_quorum_check CHECK (((quorum >= 1) AND (quorum <= 100))),
    CONSTRAINT approval_cases_source_type_check CHECK ((source_type = ANY (ARRAY['workflow'::text, 'agent'::text, 'api'::text]))),
    CONSTRAINT approval_cases_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'approved'::text, 'rejected'::text, 'expired'::text, 'cancelled'::text]))),
    CONSTRAINT approval_cases_title_check CHECK (((char_length(title) >= 1) AND (char_length(title) <= 500)))
);

ALTER TABLE ONLY public.approval_cases FORCE ROW LEVEL SECURITY;

CREATE TABLE public.approval_link_uses (
    tenant_id text NOT NULL,
    case_id uuid NOT NULL,
    approver text NOT NULL,
    used_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.approval_link_uses FORCE ROW LEVEL SECURITY;

CREATE TABLE public.chat_agents (
    tenant_id text NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    instructions text DEFAULT ''::text NOT NULL,
    model jsonb DEFAULT '{}'::jsonb NOT NULL,
    functions text[] DEFAULT '{}'::text[] NOT NULL,
    max_iterations integer DEFAULT 10 NOT NULL,
    token_budget integer DEFAULT 100000 NOT NULL,
    emit_iteration_events boolean DEFAULT false NOT NULL,
    version integer DEFAULT 1 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT chat_agents_max_iterations_check CHECK (((max_iterations >= 1) AND (max_iterations <= 100))),
    CONSTRAINT chat_agents_name_check CHECK ((name ~ '^[a-z0-9][a-z0-9_-]{0,63}$'::text)),
    CONSTRAINT chat_agents_token_budget_check CHECK ((token_budget > 0))
);

ALTER TABLE ONLY public.chat_agents FORCE ROW LEVEL SECURITY;

CREATE TABLE public.chat_client_agents (
    tenant_id text NOT NULL,
    client_id bigint NOT NULL,
    agent_name text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.chat_client_agents FORCE ROW LEVEL SECURITY;

CREATE TABLE public.chat_feedback (
    tenant_id text NOT NULL,
    message_id bigint NOT NULL,
    session_id uuid NOT NULL,
    rater_sub text NOT NULL,
    rating integer NOT NULL,
    comment text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.chat_feedback FORCE ROW LEVEL SECURITY;

CREATE TABLE public.chat_messages (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    session_id uuid NOT NULL,
    turn_id uuid,
    role text NOT NULL,
    content text NOT NULL,
    tool_metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT chat_messages_role_check CHECK ((role = ANY (ARRAY['user'::text, 'assistant'::text])))
);

ALTER TABLE ONLY public.chat_messages FORCE ROW LEVEL SECURITY;

ALTER TABLE public.chat_messages ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.chat_messages_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.chat_open_streams (
    id uuid NOT NULL,
    tenant_id text NOT NULL,
    runner_id uuid NOT NULL,
    opened_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.chat_open_streams FORCE ROW LEVEL SECURITY;

CREATE TABLE public.chat_runners (
    id uuid NOT NULL,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    heartbeat_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.chat_sessions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    client_id bigint NOT NULL,
    owner_sub text NOT NULL,
    agent_name text,
    title text DEFAULT ''::text NOT NULL,
    is_active boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_active timestamp with time zone DEFAULT now() NOT NULL,
    deleted_at timestamp with time zone,
    owner_key text NOT NULL
);

ALTER TABLE ONLY public.chat_sessions FORCE ROW LEVEL SECURITY;

CREATE TABLE public.chat_tenant_state (
    tenant_id text NOT NULL,
    touched_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.chat_tenant_state FORCE ROW LEVEL SECURITY;

CREATE TABLE public.chat_turn_frames (
    tenant_id text NOT NULL,
    turn_id uuid NOT NULL,
    first_seq integer NOT NULL,
    last_seq integer NOT NULL,
    frames text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT chat_turn_frames_check CHECK ((last_seq >= first_seq))
);

ALTER TABLE ONLY public.chat_turn_frames FORCE ROW LEVEL SECURITY;

CREATE TABLE public.chat_turns (
    id uuid NOT NULL,
    tenant_id text NOT NULL,
    session_id uuid NOT NULL,
    status text NOT NULL,
    phase text DEFAULT 'idle'::text NOT NULL,
    cancel_outcome text,
    runner_id uuid,
    user_message_id bigint NOT NULL,
    assistant_message_id bigint,
    pending_tool_call_id text,
    state jsonb NOT NULL,
    last_seq integer DEFAULT 0 NOT NULL,
    error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    CONSTRAINT chat_turns_cancel_outcome_check CHECK ((cancel_outcome = ANY (ARRAY['stopped'::text, 'cancelling'::text]))),
    CONSTRAINT chat_turns_phase_check CHECK ((phase = ANY (ARRAY['idle'::text, 'model'::text, 'tool'::text]))),
    CONSTRAINT chat_turns_status_check CHECK ((status = ANY (ARRAY['running'::text, 'suspended'::text, 'cancelling'::text, 'completed'::text, 'stopped'::text, 'cancelled'::text, 'failed'::text])))
);

ALTER TABLE ONLY public.chat_turns FORCE ROW LEVEL SECURITY;

CREATE TABLE public.citation_provenance (
    tenant_id text NOT NULL,
    context_type text NOT NULL,
    context_id text NOT NULL,
    chunk_id uuid NOT NULL,
    revision_id text NOT NULL,
    function_name text NOT NULL,
    first_shown_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.citation_provenance FORCE ROW LEVEL SECURITY;

CREATE TABLE public.citations (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    seq bigint NOT NULL,
    chunk_id uuid NOT NULL,
    revision_id text NOT NULL,
    document_id uuid,
    collection_id integer,
    document_name text NOT NULL,
    execution_context_type text NOT NULL,
    execution_context_id text NOT NULL,
    client_id integer,
    quoted_text text,
    page integer,
    section text,
    shown_to_context boolean,
    verification_status text NOT NULL,
    match_type text,
    match_score double precision,
    matched_span_start integer,
    matched_span_end integer,
    verified_at timestamp with time zone,
    verified_by_context_type text,
    verified_by_context_id text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    message_id bigint,
    CONSTRAINT citations_check CHECK (((matched_span_start IS NULL) = (matched_span_end IS NULL))),
    CONSTRAINT citations_check1 CHECK (((matched_span_start IS NULL) OR ((matched_span_start >= 0) AND (matched_span_end >= matched_span_start)))),
    CONSTRAINT citations_match_type_check CHECK ((match_type = ANY (ARRAY['exact'::text, 'normalized'::text, 'fuzzy'::text, 'not_found'::text]))),
    CONSTRAINT citations_verification_status_check CHECK ((verification_status = ANY (ARRAY['verified'::text, 'failed'::text, 'pending'::text, 'unverified'::text, 'out_of_provenance'::text])))
);

ALTER TABLE ONLY public.citations FORCE ROW LEVEL SECURITY;

ALTER TABLE public.citations ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.citations_seq_seq
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

CREATE TABLE public.embed_client_keys (
    client_key text NOT NULL,
    tenant_alias text NOT NULL,
    client_id bigint NOT NULL
);

CREATE TABLE public.embed_configs (
    tenant_id text NOT NULL,
    client_id bigint NOT NULL,
    enabled boolean DEFAULT false NOT NULL,
    allowed_origins text[] DEFAULT '{}'::text[] NOT NULL,
    default_mode text DEFAULT 'launcher'::text NOT NULL,
    features jsonb DEFAULT '{"voice": false, "history": true, "uploads": false, "feedback": true}'::jsonb NOT NULL,
    theme jsonb DEFAULT '{}'::jsonb NOT NULL,
    service_account_sub text,
    credentials_updated_at timestamp with time zone,
    version integer DEFAULT 1 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT embed_configs_default_mode_check CHECK ((default_mode = ANY (ARRAY['launcher'::text, 'inline'::text])))
);

ALTER TABLE ONLY public.embed_configs FORCE ROW LEVEL SECURITY;

CREATE TABLE public.event_cursors (
    tenant_id text NOT NULL,
    dispatched_seq bigint DEFAULT 0 NOT NULL,
    dispatched_at timestamp with time zone,
    dispatched_xid xid8 DEFAULT '0'::xid8 NOT NULL
);

ALTER TABLE ONLY public.event_cursors FORCE ROW LEVEL SECURITY;

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
    chaindepth smallint DEFAULT 0 NOT NULL,
    xid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    traceparent text,
    CONSTRAINT events_chaindepth_check CHECK ((chaindepth >= 0)),
    CONSTRAINT events_id_check CHECK (((char_length(id) >= 1) AND (char_length(id) <= 200))),
    CONSTRAINT events_source_check CHECK (((char_length(source) >= 1) AND (char_length(source) <= 500))),
    CONSTRAINT events_type_check CHECK (((char_length(type) >= 1) AND (char_length(type) <= 200)))
);

ALTER TABLE ONLY public.events FORCE ROW LEVEL SECURITY;

ALTER TABLE public.events ALTER COLUMN seq ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.events_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.forms_definition_versions (
    tenant_id text NOT NULL,
    definition_id uuid NOT NULL,
    version integer NOT NULL,
    schema jsonb NOT NULL,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT forms_definition_versions_version_check CHECK ((version >= 1))
);

ALTER TABLE ONLY public.forms_definition_versions FORCE ROW LEVEL SECURITY;

CREATE TABLE public.forms_definitions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    latest_version integer DEFAULT 1 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    deleted_at timestamp with time zone,
    CONSTRAINT forms_definitions_latest_version_check CHECK ((latest_version >= 1)),
    CONSTRAINT forms_definitions_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200)))
);

ALTER TABLE ONLY public.forms_definitions FORCE ROW LEVEL SECURITY;

CREATE TABLE public.forms_field_bindings (
    tenant_id text NOT NULL,
    use_case_id uuid NOT NULL,
    "position" integer NOT NULL,
    source_field_path text NOT NULL,
    target_field_path text NOT NULL,
    transform text NOT NULL,
    transform_params jsonb DEFAULT '{}'::jsonb NOT NULL,
    CONSTRAINT forms_field_bindings_transform_check CHECK ((transform = ANY (ARRAY['NONE'::text, 'TO_INT'::text, 'LOOKUP'::text, 'GEO_PARSE'::text])))
);

ALTER TABLE ONLY public.forms_field_bindings FORCE ROW LEVEL SECURITY;

CREATE TABLE public.forms_files (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    token_hash text NOT NULL,
    uploaded_by text NOT NULL,
    name text NOT NULL,
    content_type text NOT NULL,
    size integer NOT NULL,
    content bytea NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    consumed_at timestamp with time zone,
    submission_id uuid,
    payload_path text,
    redacted_at timestamp with time zone,
    owner_plugin text,
    owner_id text,
    CONSTRAINT forms_files_one_owner CHECK (((submission_id IS NULL) OR (owner_plugin IS NULL))),
    CONSTRAINT forms_files_owner_pair CHECK (((owner_plugin IS NULL) = (owner_id IS NULL))),
    CONSTRAINT forms_files_size_check CHECK ((size >= 0))
);

ALTER TABLE ONLY public.forms_files FORCE ROW LEVEL SECURITY;

CREATE TABLE public.forms_hydrations (
    tenant_id text NOT NULL,
    submission_id uuid NOT NULL,
    attempt integer NOT NULL,
    status text NOT NULL,
    target_model text NOT NULL,
    object_id text,
    object jsonb,
    errors jsonb DEFAULT '[]'::jsonb NOT NULL,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT forms_hydrations_attempt_check CHECK ((attempt >= 1)),
    CONSTRAINT forms_hydrations_status_check CHECK ((status = ANY (ARRAY['hydrated'::text, 'failed'::text])))
);

ALTER TABLE ONLY public.forms_hydrations FORCE ROW LEVEL SECURITY;

CREATE TABLE public.forms_redactions (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    submission_id uuid NOT NULL,
    redacted_by text NOT NULL,
    reason text NOT NULL,
    fields jsonb NOT NULL,
    files integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.forms_redactions FORCE ROW LEVEL SECURITY;

ALTER TABLE public.forms_redactions ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.forms_redactions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.forms_submissions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    seq bigint NOT NULL,
    tenant_id text NOT NULL,
    use_case_id uuid NOT NULL,
    definition_id uuid NOT NULL,
    form_version integer NOT NULL,
    payload_json jsonb NOT NULL,
    municipality text,
    submitted_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    redacted_at timestamp with time zone
);

ALTER TABLE ONLY public.forms_submissions FORCE ROW LEVEL SECURITY;

ALTER TABLE public.forms_submissions ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.forms_submissions_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.forms_use_cases (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    name text NOT NULL,
    definition_id uuid NOT NULL,
    form_version integer,
    target_model text NOT NULL,
    target_config jsonb DEFAULT '{}'::jsonb NOT NULL,
    access text NOT NULL,
    active boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    deleted_at timestamp with time zone,
    CONSTRAINT forms_use_cases_access_check CHECK ((access = ANY (ARRAY['public'::text, 'authenticated'::text]))),
    CONSTRAINT forms_use_cases_form_version_check CHECK ((form_version >= 1)),
    CONSTRAINT forms_use_cases_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200)))
);

ALTER TABLE ONLY public.forms_use_cases FORCE ROW LEVEL SECURITY;

CREATE TABLE public.identity_policies (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    current_version integer DEFAULT 1 NOT NULL,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    deleted_at timestamp with time zone,
    CONSTRAINT identity_policies_description_check CHECK ((char_length(description) <= 2000)),
    CONSTRAINT identity_policies_name_check CHECK ((name ~ '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$'::text))
);

ALTER TABLE ONLY public.identity_policies FORCE ROW LEVEL SECURITY;

CREATE TABLE public.identity_policy_versions (
    tenant_id text NOT NULL,
    policy_id uuid NOT NULL,
    version integer NOT NULL,
    spec jsonb NOT NULL,
    fingerprint text NOT NULL,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT identity_policy_versions_version_check CHECK ((version >= 1))
);

ALTER TABLE ONLY public.identity_policy_versions FORCE ROW LEVEL SECURITY;

CREATE TABLE public.ingestion_blobs (
    tenant_id text NOT NULL,
    content_hash text NOT NULL,
    size_bytes bigint NOT NULL,
    bytes bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE ONLY public.ingestion_blobs ALTER COLUMN bytes SET STORAGE EXTERNAL;

ALTER TABLE ONLY public.ingestion_blobs FORCE ROW LEVEL SECURITY;

CREATE TABLE public.ingestion_chunks (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    revision_id uuid NOT NULL,
    document_id uuid NOT NULL,
    collection_id integer NOT NULL,
    ordinal integer NOT NULL,
    kind text DEFAULT 'text'::text NOT NULL,
    text text NOT NULL,
    page integer DEFAULT 0 NOT NULL,
    section text,
    char_start integer NOT NULL,
    char_end integer NOT NULL,
    token_count integer NOT NULL,
    ts_config regconfig DEFAULT 'english'::regconfig NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector(ts_config, text)) STORED,
    is_current boolean DEFAULT false NOT NULL,
    embedding public.vector,
    embedding_dims integer,
    embedding_model text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT ingestion_chunks_check CHECK ((char_end >= char_start)),
    CONSTRAINT ingestion_chunks_check1 CHECK (((embedding IS NULL) = (embedding_dims IS NULL))),
    CONSTRAINT ingestion_chunks_kind_check CHECK ((kind = ANY (ARRAY['text'::text, 'ocr'::text, 'table'::text, 'vision'::text])))
);

ALTER TABLE ONLY public.ingestion_chunks FORCE ROW LEVEL SECURITY;

CREATE TABLE public.ingestion_collections (
    id integer NOT NULL,
    tenant_id text NOT NULL,
    parent_id integer,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    scope text,
    CONSTRAINT ingestion_collections_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200))),
    CONSTRAINT ingestion_collections_scope_check CHECK (((scope IS NULL) OR ((char_length(scope) >= 1) AND (char_length(scope) <= 200))))
);

ALTER TABLE ONLY public.ingestion_collections FORCE ROW LEVEL SECURITY;

ALTER TABLE public.ingestion_collections ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.ingestion_collections_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.ingestion_documents (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    collection_id integer NOT NULL,
    source_id integer,
    source_key text,
    name text NOT NULL,
    filename text NOT NULL,
    content_type text NOT NULL,
    size_bytes bigint NOT NULL,
    content_hash text NOT NULL,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    page_count integer,
    ingestion_status text DEFAULT 'pending'::text NOT NULL,
    stage text,
    progress_pct integer DEFAULT 0 NOT NULL,
    error text,
    run_id uuid,
    run_revision_id uuid,
    latest_revision_id uuid,
    chunk_count integer DEFAULT 0 NOT NULL,
    runs integer DEFAULT 0 NOT NULL,
    started_at timestamp with time zone,
    completed_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT ingestion_documents_ingestion_status_check CHECK ((ingestion_status = ANY (ARRAY['pending'::text, 'ingesting'::text, 'ready'::text, 'error'::text]))),
    CONSTRAINT ingestion_documents_progress_pct_check CHECK (((progress_pct >= 0) AND (progress_pct <= 100))),
    CONSTRAINT ingestion_documents_stage_check CHECK ((stage = ANY (ARRAY['validate'::text, 'create_revision'::text, 'parse_and_chunk'::text, 'enrich'::text, 'finalize'::text, 'done'::text])))
);

ALTER TABLE ONLY public.ingestion_documents FORCE ROW LEVEL SECURITY;

CREATE TABLE public.ingestion_page_images (
    tenant_id text NOT NULL,
    revision_id uuid NOT NULL,
    document_id uuid NOT NULL,
    collection_id integer NOT NULL,
    page integer NOT NULL,
    kind text NOT NULL,
    png bytea NOT NULL,
    is_current boolean DEFAULT false NOT NULL,
    embedding public.vector,
    embedding_dims integer,
    embedding_model text,
    CONSTRAINT ingestion_page_images_kind_check CHECK ((kind = ANY (ARRAY['text'::text, 'drawing'::text, 'table'::text])))
);
ALTER TABLE ONLY public.ingestion_page_images ALTER COLUMN png SET STORAGE EXTERNAL;

ALTER TABLE ONLY public.ingestion_page_images FORCE ROW LEVEL SECURITY;

CREATE TABLE public.ingestion_quota_slots (
    tenant_id text NOT NULL,
    document_id uuid NOT NULL,
    run_id uuid NOT NULL,
    acquired_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.ingestion_quota_slots FORCE ROW LEVEL SECURITY;

CREATE TABLE public.ingestion_revisions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    document_id uuid NOT NULL,
    revision_number integer NOT NULL,
    status text DEFAULT 'building'::text NOT NULL,
    content_hash text NOT NULL,
    content_type text NOT NULL,
    size_bytes bigint NOT NULL,
    parser text,
    language text,
    text text,
    pages jsonb DEFAULT '[]'::jsonb NOT NULL,
    sections jsonb DEFAULT '[]'::jsonb NOT NULL,
    page_count integer,
    warnings jsonb DEFAULT '[]'::jsonb NOT NULL,
    enrichment jsonb DEFAULT '{}'::jsonb NOT NULL,
    error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    completed_at timestamp with time zone,
    CONSTRAINT ingestion_revisions_revision_number_check CHECK ((revision_number > 0)),
    CONSTRAINT ingestion_revisions_status_check CHECK ((status = ANY (ARRAY['building'::text, 'ready'::text, 'failed'::text])))
);

ALTER TABLE ONLY public.ingestion_revisions FORCE ROW LEVEL SECURITY;

CREATE TABLE public.ingestion_sync_sources (
    id integer NOT NULL,
    tenant_id text NOT NULL,
    name text NOT NULL,
    kind text NOT NULL,
    collection_id integer NOT NULL,
    directory text,
    pattern text,
    recursive boolean DEFAULT true NOT NULL,
    urls jsonb,
    schedule text,
    timezone text DEFAULT 'UTC'::text NOT NULL,
    active boolean DEFAULT true NOT NULL,
    last_sync_started_at timestamp with time zone,
    last_sync_at timestamp with time zone,
    last_sync_status text,
    last_sync_stats jsonb,
    last_sync_errors jsonb DEFAULT '[]'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT ingestion_sync_sources_check CHECK ((((kind = 'directory'::text) AND (directory IS NOT NULL)) OR ((kind = 'urls'::text) AND (urls IS NOT NULL)))),
    CONSTRAINT ingestion_sync_sources_kind_check CHECK ((kind = ANY (ARRAY['directory'::text, 'urls'::text]))),
    CONSTRAINT ingestion_sync_sources_last_sync_status_check CHECK ((last_sync_status = ANY (ARRAY['running'::text, 'succeeded'::text, 'partial'::text, 'failed'::text]))),
    CONSTRAINT ingestion_sync_sources_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200)))
);

ALTER TABLE ONLY public.ingestion_sync_sources FORCE ROW LEVEL SECURITY;

ALTER TABLE public.ingestion_sync_sources ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.ingestion_sync_sources_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.ingestion_tenant_state (
    tenant_id text NOT NULL,
    touched_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.ingestion_tenant_state FORCE ROW LEVEL SECURITY;

CREATE TABLE public.ingestion_terms (
    tenant_id text NOT NULL,
    term text NOT NULL
);

ALTER TABLE ONLY public.ingestion_terms FORCE ROW LEVEL SECURITY;

CREATE TABLE public.integration_client_credentials (
    tenant_id text NOT NULL,
    client_id bigint NOT NULL,
    service_name text NOT NULL,
    header text,
    value_sealed text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    bound_origin text
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
    bound_origins text[] DEFAULT '{}'::text[] NOT NULL,
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
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    bound_origin text
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
    auth_value_origin text,
    CONSTRAINT integration_specs_format_check CHECK ((format = ANY (ARRAY['swagger-2.0'::text, 'openapi-3.0'::text, 'openapi-3.1'::text]))),
    CONSTRAINT integration_specs_last_sync_result_check CHECK ((last_sync_result = ANY (ARRAY['imported'::text, 'synced'::text, 'skipped'::text, 'failed'::text]))),
    CONSTRAINT integration_specs_name_check CHECK ((name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$'::text)),
    CONSTRAINT integration_specs_source_kind_check CHECK ((source_kind = ANY (ARRAY['url'::text, 'file'::text, 'inline'::text]))),
    CONSTRAINT integration_specs_status_check CHECK ((status = ANY (ARRAY['active'::text, 'sync_failed'::text])))
);

ALTER TABLE ONLY public.integration_specs FORCE ROW LEVEL SECURITY;

CREATE TABLE public.lake_datasets (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    dataset_id text NOT NULL,
    namespace text NOT NULL,
    layer text NOT NULL,
    table_name text NOT NULL,
    physical_table text NOT NULL,
    shared boolean DEFAULT false NOT NULL,
    producer_kind text NOT NULL,
    producer_id text NOT NULL,
    producer_name text,
    columns jsonb DEFAULT '[]'::jsonb NOT NULL,
    primary_key text[] DEFAULT '{}'::text[] NOT NULL,
    latest_snapshot_id bigint,
    row_count bigint DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT lake_datasets_dataset_id_check CHECK ((char_length(dataset_id) <= 200)),
    CONSTRAINT lake_datasets_namespace_check CHECK ((namespace = ANY (ARRAY['raw'::text, 'derived'::text, 'registry'::text, 'sandbox'::text])))
);

ALTER TABLE ONLY public.lake_datasets FORCE ROW LEVEL SECURITY;

ALTER TABLE public.lake_datasets ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.lake_datasets_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE SEQUENCE public.lake_snapshot_ids
    START WITH 9007199254740993
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

CREATE TABLE public.lake_snapshots (
    snapshot_id bigint NOT NULL,
    tenant_id text NOT NULL,
    dataset_ref bigint NOT NULL,
    parent_snapshot_id bigint,
    shared boolean DEFAULT false NOT NULL,
    operation text NOT NULL,
    rows_staged bigint DEFAULT 0 NOT NULL,
    rows_added bigint DEFAULT 0 NOT NULL,
    rows_removed bigint DEFAULT 0 NOT NULL,
    row_count bigint DEFAULT 0 NOT NULL,
    summary jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.lake_snapshots FORCE ROW LEVEL SECURITY;

CREATE TABLE public.mail_outbox (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    recipient text NOT NULL,
    subject text NOT NULL,
    body_text text NOT NULL,
    body_html text,
    state text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    last_error text,
    next_attempt_at timestamp with time zone,
    sent_at timestamp with time zone,
    origin text NOT NULL,
    origin_id text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT mail_outbox_state_check CHECK ((state = ANY (ARRAY['held'::text, 'pending'::text, 'sending'::text, 'failed'::text, 'sent'::text, 'dead'::text])))
);

ALTER TABLE ONLY public.mail_outbox FORCE ROW LEVEL SECURITY;

ALTER TABLE public.mail_outbox ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.mail_outbox_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.occurrence_counters (
    tenant_id text NOT NULL,
    year integer NOT NULL,
    last integer NOT NULL
);

ALTER TABLE ONLY public.occurrence_counters FORCE ROW LEVEL SECURITY;

CREATE TABLE public.occurrence_history (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    occurrence_id bigint NOT NULL,
    from_state text,
    to_state text NOT NULL,
    comment text DEFAULT ''::text NOT NULL,
    actor text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.occurrence_history FORCE ROW LEVEL SECURITY;

ALTER TABLE public.occurrence_history ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.occurrence_history_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.occurrence_messages (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    occurrence_id bigint NOT NULL,
    template_id bigint,
    channel text NOT NULL,
    subject text DEFAULT ''::text NOT NULL,
    body text NOT NULL,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.occurrence_messages FORCE ROW LEVEL SECURITY;

ALTER TABLE public.occurrence_messages ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.occurrence_messages_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.occurrence_settings (
    tenant_id text NOT NULL,
    service_area jsonb,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.occurrence_settings FORCE ROW LEVEL SECURITY;

CREATE TABLE public.occurrence_states (
    tenant_id text NOT NULL,
    key text NOT NULL,
    label text NOT NULL,
    is_initial boolean DEFAULT false NOT NULL,
    is_final boolean DEFAULT false NOT NULL,
    "position" integer DEFAULT 0 NOT NULL,
    CONSTRAINT occurrence_states_check CHECK ((NOT (is_initial AND is_final))),
    CONSTRAINT occurrence_states_key_check CHECK ((key ~ '^[a-z][a-z0-9_]{0,63}$'::text)),
    CONSTRAINT occurrence_states_label_check CHECK (((char_length(label) >= 1) AND (char_length(label) <= 200)))
);

ALTER TABLE ONLY public.occurrence_states FORCE ROW LEVEL SECURITY;

CREATE TABLE public.occurrence_supports (
    tenant_id text NOT NULL,
    occurrence_id bigint NOT NULL,
    client_hash text NOT NULL,
    counted_at timestamp with time zone NOT NULL
);

ALTER TABLE ONLY public.occurrence_supports FORCE ROW LEVEL SECURITY;

CREATE TABLE public.occurrence_templates (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    name text NOT NULL,
    channel text NOT NULL,
    subject text DEFAULT ''::text NOT NULL,
    body text NOT NULL,
    type_ids bigint[] DEFAULT '{}'::bigint[] NOT NULL,
    states text[] DEFAULT '{}'::text[] NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    send_on_enter boolean DEFAULT false NOT NULL,
    CONSTRAINT occurrence_templates_channel_check CHECK ((channel = ANY (ARRAY['email'::text, 'sms'::text, 'note'::text]))),
    CONSTRAINT occurrence_templates_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200)))
);

ALTER TABLE ONLY public.occurrence_templates FORCE ROW LEVEL SECURITY;

ALTER TABLE public.occurrence_templates ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.occurrence_templates_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.occurrence_transitions (
    tenant_id text NOT NULL,
    from_state text NOT NULL,
    to_state text NOT NULL,
    CONSTRAINT occurrence_transitions_check CHECK ((from_state <> to_state))
);

ALTER TABLE ONLY public.occurrence_transitions FORCE ROW LEVEL SECURITY;

CREATE TABLE public.occurrence_types (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    name text NOT NULL,
    code text NOT NULL,
    form_schema jsonb NOT NULL,
    duplicate_policy text DEFAULT 'warn'::text NOT NULL,
    duplicate_radius_m integer DEFAULT 50 NOT NULL,
    duplicate_window_days integer DEFAULT 30 NOT NULL,
    active boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT occurrence_types_code_check CHECK ((code ~ '^[A-Za-z0-9_.-]{1,64}$'::text)),
    CONSTRAINT occurrence_types_duplicate_policy_check CHECK ((duplicate_policy = ANY (ARRAY['allow'::text, 'warn'::text, 'reject'::text]))),
    CONSTRAINT occurrence_types_duplicate_radius_m_check CHECK (((duplicate_radius_m >= 1) AND (duplicate_radius_m <= 100000))),
    CONSTRAINT occurrence_types_duplicate_window_days_check CHECK (((duplicate_window_days >= 1) AND (duplicate_window_days <= 3650))),
    CONSTRAINT occurrence_types_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200)))
);

ALTER TABLE ONLY public.occurrence_types FORCE ROW LEVEL SECURITY;

ALTER TABLE public.occurrence_types ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.occurrence_types_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.occurrences (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    reference text NOT NULL,
    type_id bigint NOT NULL,
    title text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    latitude double precision NOT NULL,
    longitude double precision NOT NULL,
    address text,
    reporter_name text,
    reporter_email text,
    reporter_phone text,
    dynamic_fields jsonb DEFAULT '{}'::jsonb NOT NULL,
    attachments jsonb DEFAULT '[]'::jsonb NOT NULL,
    state text NOT NULL,
    duplicate_of bigint,
    source text NOT NULL,
    submitted_by text,
    search_text text GENERATED ALWAYS AS (((title || ' '::text) || description)) STORED,
    search_vector tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, ((title || ' '::text) || description))) STORED,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    support_count integer DEFAULT 0 NOT NULL,
    CONSTRAINT occurrences_latitude_check CHECK (((latitude >= ('-90'::integer)::double precision) AND (latitude <= (90)::double precision))),
    CONSTRAINT occurrences_longitude_check CHECK (((longitude >= ('-180'::integer)::double precision) AND (longitude <= (180)::double precision))),
    CONSTRAINT occurrences_source_check CHECK ((source = ANY (ARRAY['public'::text, 'staff'::text, 'form'::text, 'open311'::text]))),
    CONSTRAINT occurrences_support_count_check CHECK ((support_count >= 0)),
    CONSTRAINT occurrences_title_check CHECK (((char_length(title) >= 1) AND (char_length(title) <= 300)))
);

ALTER TABLE ONLY public.occurrences FORCE ROW LEVEL SECURITY;

ALTER TABLE public.occurrences ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.occurrences_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.ontology_backing_datasets (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    name text NOT NULL,
    dataset_id text NOT NULL,
    entity_type text NOT NULL,
    entity_type_version integer,
    mappings jsonb NOT NULL,
    key_columns text[] NOT NULL,
    identity_policy_id text,
    applied_sync_spec_fingerprint text,
    applied_snapshot_id bigint,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.ontology_backing_datasets FORCE ROW LEVEL SECURITY;

CREATE TABLE public.ontology_entities (
    tenant_id text NOT NULL,
    entity_type text NOT NULL,
    key text NOT NULL,
    key_values jsonb NOT NULL,
    properties jsonb NOT NULL,
    backing_dataset_id uuid NOT NULL,
    dataset_id text NOT NULL,
    snapshot_id bigint NOT NULL,
    source_row_key text NOT NULL,
    synced_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.ontology_entities FORCE ROW LEVEL SECURITY;

CREATE TABLE public.ontology_entity_type_versions (
    tenant_id text NOT NULL,
    code text NOT NULL,
    version integer NOT NULL,
    name text NOT NULL,
    description text,
    properties jsonb NOT NULL,
    keys text[] NOT NULL,
    relationships jsonb DEFAULT '[]'::jsonb NOT NULL,
    carrier_types text[] DEFAULT '{}'::text[] NOT NULL,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.ontology_entity_type_versions FORCE ROW LEVEL SECURITY;

CREATE TABLE public.ontology_entity_types (
    tenant_id text NOT NULL,
    code text NOT NULL,
    current_version integer NOT NULL,
    deprecated_at timestamp with time zone,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.ontology_entity_types FORCE ROW LEVEL SECURITY;

CREATE TABLE public.ontology_sync_logs (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    run_id uuid NOT NULL,
    level text DEFAULT 'info'::text NOT NULL,
    message text NOT NULL,
    at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.ontology_sync_logs FORCE ROW LEVEL SECURITY;

ALTER TABLE public.ontology_sync_logs ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.ontology_sync_logs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.ontology_sync_runs (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    backing_dataset_id uuid NOT NULL,
    workflow_id text,
    status text DEFAULT 'queued'::text NOT NULL,
    force boolean DEFAULT false NOT NULL,
    effective_spec jsonb NOT NULL,
    attempted_sync_spec_fingerprint text NOT NULL,
    applied_sync_spec_fingerprint text,
    effective_spec_changed boolean DEFAULT false NOT NULL,
    replay_reason text,
    snapshot_id bigint,
    rows_synced bigint DEFAULT 0 NOT NULL,
    bulk_jobs jsonb DEFAULT '[]'::jsonb NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    error text,
    requested_by jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    started_at timestamp with time zone,
    finished_at timestamp with time zone,
    CONSTRAINT ontology_sync_runs_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'running'::text, 'succeeded'::text, 'skipped'::text, 'failed'::text])))
);

ALTER TABLE ONLY public.ontology_sync_runs FORCE ROW LEVEL SECURITY;

CREATE TABLE public.pipeline_credentials (
    tenant_id text NOT NULL,
    ref text NOT NULL,
    name text NOT NULL,
    kind text NOT NULL,
    field_names text[] NOT NULL,
    sealed text NOT NULL,
    version integer DEFAULT 1 NOT NULL,
    status text DEFAULT 'active'::text NOT NULL,
    rotated_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT pipeline_credentials_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200))),
    CONSTRAINT pipeline_credentials_ref_check CHECK ((ref ~ '^cred_[A-Za-z0-9_-]{16,64}$'::text)),
    CONSTRAINT pipeline_credentials_status_check CHECK ((status = ANY (ARRAY['active'::text, 'revoked'::text])))
);

ALTER TABLE ONLY public.pipeline_credentials FORCE ROW LEVEL SECURITY;

CREATE TABLE public.pipeline_discoveries (
    workflow_id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    source_id uuid NOT NULL,
    apply boolean DEFAULT false NOT NULL,
    status text DEFAULT 'queued'::text NOT NULL,
    streams jsonb,
    error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    CONSTRAINT pipeline_discoveries_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'running'::text, 'succeeded'::text, 'failed'::text])))
);

ALTER TABLE ONLY public.pipeline_discoveries FORCE ROW LEVEL SECURITY;

CREATE TABLE public.pipeline_pattern_registrations (
    id text NOT NULL,
    base_pattern text NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    defaults jsonb DEFAULT '{}'::jsonb NOT NULL,
    managed_by text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT pipeline_pattern_registrations_description_check CHECK ((char_length(description) <= 2000)),
    CONSTRAINT pipeline_pattern_registrations_id_check CHECK ((id ~ '^[a-z0-9_]{1,63}$'::text)),
    CONSTRAINT pipeline_pattern_registrations_managed_by_check CHECK ((managed_by = ANY (ARRAY['register'::text, 'reconcile'::text]))),
    CONSTRAINT pipeline_pattern_registrations_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200)))
);

CREATE TABLE public.pipeline_pattern_webhook_ids (
    id text NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    CONSTRAINT pipeline_pattern_webhook_ids_id_check CHECK (((char_length(id) >= 1) AND (char_length(id) <= 255)))
);

CREATE TABLE public.pipeline_run_logs (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    run_id uuid NOT NULL,
    at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    level text NOT NULL,
    message text NOT NULL,
    CONSTRAINT pipeline_run_logs_level_check CHECK ((level = ANY (ARRAY['info'::text, 'warn'::text, 'error'::text])))
);

ALTER TABLE ONLY public.pipeline_run_logs FORCE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_run_logs ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.pipeline_run_logs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.pipeline_run_steps (
    tenant_id text NOT NULL,
    run_id uuid NOT NULL,
    step_id text NOT NULL,
    "position" integer NOT NULL,
    depends_on text[] DEFAULT '{}'::text[] NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    output_dataset text,
    snapshot_id bigint,
    rows bigint,
    columns jsonb,
    sample_rows jsonb,
    error text,
    sql_ms integer,
    started_at timestamp with time zone,
    finished_at timestamp with time zone,
    backend_pid integer,
    session_tag text,
    CONSTRAINT pipeline_run_steps_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'running'::text, 'succeeded'::text, 'failed'::text, 'skipped'::text, 'cancelled'::text])))
);

ALTER TABLE ONLY public.pipeline_run_steps FORCE ROW LEVEL SECURITY;

CREATE TABLE public.pipeline_runs (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    pipeline_id uuid NOT NULL,
    version integer NOT NULL,
    kind text NOT NULL,
    trigger text NOT NULL,
    trigger_detail jsonb DEFAULT '{}'::jsonb NOT NULL,
    status text DEFAULT 'running'::text NOT NULL,
    error text,
    created_by text,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    CONSTRAINT pipeline_runs_kind_check CHECK ((kind = ANY (ARRAY['sandbox'::text, 'production'::text]))),
    CONSTRAINT pipeline_runs_status_check CHECK ((status = ANY (ARRAY['running'::text, 'succeeded'::text, 'failed'::text, 'cancelled'::text]))),
    CONSTRAINT pipeline_runs_trigger_check CHECK ((trigger = ANY (ARRAY['manual'::text, 'schedule'::text, 'sensor'::text, 'orchestrator'::text])))
);

ALTER TABLE ONLY public.pipeline_runs FORCE ROW LEVEL SECURITY;

CREATE TABLE public.pipeline_sensor_cursors (
    tenant_id text NOT NULL,
    last_seq bigint DEFAULT 0 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    last_position text
);

ALTER TABLE ONLY public.pipeline_sensor_cursors FORCE ROW LEVEL SECURITY;

CREATE TABLE public.pipeline_source_files (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    name text NOT NULL,
    content_type text NOT NULL,
    size_bytes bigint NOT NULL,
    content bytea NOT NULL,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT pipeline_source_files_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 255)))
);

ALTER TABLE ONLY public.pipeline_source_files FORCE ROW LEVEL SECURITY;

CREATE TABLE public.pipeline_sources (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    name text NOT NULL,
    pattern_id text NOT NULL,
    source_config jsonb DEFAULT '{}'::jsonb NOT NULL,
    credential_ref text,
    state text DEFAULT 'ready'::text NOT NULL,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    acts_for jsonb,
    CONSTRAINT pipeline_sources_name_check CHECK ((name ~ '^[A-Za-z0-9_]{1,63}$'::text)),
    CONSTRAINT pipeline_sources_state_check CHECK ((state = ANY (ARRAY['ready'::text, 'active'::text])))
);

ALTER TABLE ONLY public.pipeline_sources FORCE ROW LEVEL SECURITY;

CREATE TABLE public.pipeline_streams (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    source_id uuid NOT NULL,
    name text NOT NULL,
    namespace text,
    schema jsonb DEFAULT '{}'::jsonb NOT NULL,
    supported_sync_modes text[] DEFAULT '{full_refresh}'::text[] NOT NULL,
    sync_mode text DEFAULT 'full_refresh'::text NOT NULL,
    write_mode text DEFAULT 'overwrite'::text NOT NULL,
    cursor_field text,
    primary_key text[] DEFAULT '{}'::text[] NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    destination text NOT NULL,
    state jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT pipeline_streams_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200))),
    CONSTRAINT pipeline_streams_namespace_check CHECK ((char_length(namespace) <= 200)),
    CONSTRAINT pipeline_streams_sync_mode_check CHECK ((sync_mode = ANY (ARRAY['full_refresh'::text, 'incremental'::text]))),
    CONSTRAINT pipeline_streams_write_mode_check CHECK ((write_mode = ANY (ARRAY['overwrite'::text, 'append'::text, 'append_dedup'::text])))
);

ALTER TABLE ONLY public.pipeline_streams FORCE ROW LEVEL SECURITY;

CREATE TABLE public.pipeline_sync_run_streams (
    tenant_id text NOT NULL,
    run_id uuid NOT NULL,
    stream_id uuid NOT NULL,
    stream_name text NOT NULL,
    namespace text,
    destination text NOT NULL,
    sync_mode text NOT NULL,
    write_mode text NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    rows_read bigint DEFAULT 0 NOT NULL,
    rows_added bigint DEFAULT 0 NOT NULL,
    rows_removed bigint DEFAULT 0 NOT NULL,
    type_errors bigint DEFAULT 0 NOT NULL,
    snapshot_id bigint,
    snapshot_created boolean DEFAULT false NOT NULL,
    cursor_before text,
    cursor_after text,
    error text,
    finished_at timestamp with time zone,
    CONSTRAINT pipeline_sync_run_streams_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'succeeded'::text, 'failed'::text])))
);

ALTER TABLE ONLY public.pipeline_sync_run_streams FORCE ROW LEVEL SECURITY;

CREATE TABLE public.pipeline_sync_runs (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    source_id uuid NOT NULL,
    workflow_id text,
    trigger text DEFAULT 'manual'::text NOT NULL,
    status text DEFAULT 'queued'::text NOT NULL,
    requested_streams text[],
    attempts integer DEFAULT 0 NOT NULL,
    rows_read bigint DEFAULT 0 NOT NULL,
    rows_added bigint DEFAULT 0 NOT NULL,
    rows_removed bigint DEFAULT 0 NOT NULL,
    error text,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    started_at timestamp with time zone,
    finished_at timestamp with time zone,
    CONSTRAINT pipeline_sync_runs_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'running'::text, 'succeeded'::text, 'partial'::text, 'failed'::text]))),
    CONSTRAINT pipeline_sync_runs_trigger_check CHECK ((trigger = ANY (ARRAY['manual'::text, 'schedule'::text])))
);

ALTER TABLE ONLY public.pipeline_sync_runs FORCE ROW LEVEL SECURITY;

CREATE TABLE public.pipeline_versions (
    tenant_id text NOT NULL,
    pipeline_id uuid NOT NULL,
    version integer NOT NULL,
    steps jsonb NOT NULL,
    fingerprint text NOT NULL,
    note text DEFAULT ''::text NOT NULL,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT pipeline_versions_version_check CHECK ((version >= 1))
);

ALTER TABLE ONLY public.pipeline_versions FORCE ROW LEVEL SECURITY;

CREATE TABLE public.pipeline_workflows (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    kind text NOT NULL,
    status text NOT NULL,
    input jsonb DEFAULT '{}'::jsonb NOT NULL,
    result jsonb,
    error text,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    CONSTRAINT pipeline_workflows_kind_check CHECK ((kind = ANY (ARRAY['schema-match'::text, 'transform'::text]))),
    CONSTRAINT pipeline_workflows_status_check CHECK ((status = ANY (ARRAY['running'::text, 'succeeded'::text, 'failed'::text, 'cancelled'::text])))
);

ALTER TABLE ONLY public.pipeline_workflows FORCE ROW LEVEL SECURITY;

CREATE TABLE public.pipelines (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    steps jsonb DEFAULT '[]'::jsonb NOT NULL,
    schedule_cron text,
    schedule_timezone text DEFAULT 'UTC'::text NOT NULL,
    sensor boolean DEFAULT false NOT NULL,
    state text DEFAULT 'draft'::text NOT NULL,
    active_version integer,
    activated_at timestamp with time zone,
    next_run_at timestamp with time zone,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    sensor_pending jsonb,
    CONSTRAINT pipelines_description_check CHECK ((char_length(description) <= 2000)),
    CONSTRAINT pipelines_name_check CHECK ((name ~ '^[A-Za-z0-9_]{1,63}$'::text)),
    CONSTRAINT pipelines_state_check CHECK ((state = ANY (ARRAY['draft'::text, 'validated'::text, 'active'::text, 'paused'::text])))
);

ALTER TABLE ONLY public.pipelines FORCE ROW LEVEL SECURITY;

CREATE TABLE public.pipelines_ai_compositions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    status text DEFAULT 'queued'::text NOT NULL,
    request jsonb NOT NULL,
    result jsonb,
    error jsonb,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    attempts integer DEFAULT 0 NOT NULL,
    CONSTRAINT pipelines_ai_compositions_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'running'::text, 'succeeded'::text, 'failed'::text])))
);

ALTER TABLE ONLY public.pipelines_ai_compositions FORCE ROW LEVEL SECURITY;

CREATE TABLE public.platform_boot_state (
    name text NOT NULL,
    fingerprint text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.platform_job_workers (
    worker_id text NOT NULL,
    heartbeat_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.platform_migrations (
    plugin text NOT NULL,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE UNLOGGED TABLE public.platform_rate_limits (
    limiter text NOT NULL,
    key text NOT NULL,
    tokens double precision NOT NULL,
    at double precision NOT NULL,
    full_at double precision NOT NULL,
    granted integer NOT NULL
);

CREATE TABLE public.platform_settings (
    key text NOT NULL,
    value text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.schedules (
    tenant_id text NOT NULL,
    kind text NOT NULL,
    subject text NOT NULL,
    cron text NOT NULL,
    timezone text DEFAULT 'UTC'::text NOT NULL,
    missed_policy text DEFAULT 'skip'::text NOT NULL,
    paused boolean DEFAULT false NOT NULL,
    data jsonb DEFAULT '{}'::jsonb NOT NULL,
    next_run_at timestamp with time zone,
    last_run_at timestamp with time zone,
    last_outcome text,
    last_run_id text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT schedules_cron_check CHECK ((char_length(cron) <= 200)),
    CONSTRAINT schedules_kind_check CHECK (((char_length(kind) >= 1) AND (char_length(kind) <= 100))),
    CONSTRAINT schedules_missed_policy_check CHECK ((missed_policy = ANY (ARRAY['skip'::text, 'catch_up_once'::text]))),
    CONSTRAINT schedules_subject_check CHECK (((char_length(subject) >= 1) AND (char_length(subject) <= 200)))
);

ALTER TABLE ONLY public.schedules FORCE ROW LEVEL SECURITY;

CREATE TABLE public.schema_registry (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    subject text NOT NULL,
    version integer NOT NULL,
    domain text,
    description text DEFAULT ''::text NOT NULL,
    schema jsonb NOT NULL,
    fingerprint text NOT NULL,
    source text NOT NULL,
    dataset_id text,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT schema_registry_description_check CHECK ((char_length(description) <= 2000)),
    CONSTRAINT schema_registry_domain_check CHECK ((char_length(domain) <= 100)),
    CONSTRAINT schema_registry_source_check CHECK ((source = ANY (ARRAY['registered'::text, 'discovered'::text, 'library'::text]))),
    CONSTRAINT schema_registry_subject_check CHECK ((subject ~ '^[A-Za-z0-9_][A-Za-z0-9_./-]{0,199}$'::text)),
    CONSTRAINT schema_registry_version_check CHECK ((version >= 1))
);

ALTER TABLE ONLY public.schema_registry FORCE ROW LEVEL SECURITY;

CREATE TABLE public.tenant_public_origins (
    tenant_id text NOT NULL,
    origin text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT tenant_public_origins_origin_check CHECK (((length(origin) >= 1) AND (length(origin) <= 2048)))
);

ALTER TABLE ONLY public.tenant_public_origins FORCE ROW LEVEL SECURITY;

CREATE TABLE public.tenants (
    id text NOT NULL,
    display_name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT tenants_id_check CHECK (((char_length(id) <= 64) AND ((id ~ '^[a-z0-9-]+$'::text) OR (id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text))))
);

CREATE TABLE public.transform_artifacts (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    transform_id uuid NOT NULL,
    run_id bigint NOT NULL,
    kind text NOT NULL,
    name text NOT NULL,
    content_type text NOT NULL,
    content text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT transform_artifacts_kind_check CHECK ((kind = ANY (ARRAY['compiled_sql'::text, 'logs'::text, 'output_summary'::text])))
);

ALTER TABLE ONLY public.transform_artifacts FORCE ROW LEVEL SECURITY;

CREATE TABLE public.transform_generic_runs (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    triggering_transform_id uuid,
    orchestrator_run_id text,
    job_name text,
    status text DEFAULT 'pending'::text NOT NULL,
    message text,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    started_at timestamp with time zone,
    finished_at timestamp with time zone,
    CONSTRAINT transform_generic_runs_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'running'::text, 'succeeded'::text, 'failed'::text, 'cancelled'::text])))
);

ALTER TABLE ONLY public.transform_generic_runs FORCE ROW LEVEL SECURITY;

ALTER TABLE public.transform_generic_runs ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.transform_generic_runs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.transform_patterns (
    id text NOT NULL,
    name text NOT NULL,
    description text NOT NULL,
    category text NOT NULL,
    parameters_schema jsonb NOT NULL,
    checksum text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.transform_runs (
    id bigint NOT NULL,
    tenant_id text NOT NULL,
    transform_id uuid NOT NULL,
    orchestrator_run_id text,
    pipeline_run_id text,
    trigger text NOT NULL,
    status text DEFAULT 'queued'::text NOT NULL,
    parameters jsonb DEFAULT '{}'::jsonb NOT NULL,
    output_dataset text NOT NULL,
    compiled_sql text,
    rows bigint,
    snapshot_id bigint,
    columns jsonb,
    error jsonb,
    logs jsonb DEFAULT '[]'::jsonb NOT NULL,
    backend_pid integer,
    session_tag text,
    cancel_requested boolean DEFAULT false NOT NULL,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    started_at timestamp with time zone,
    finished_at timestamp with time zone,
    attempts integer DEFAULT 0 NOT NULL,
    CONSTRAINT transform_runs_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'running'::text, 'succeeded'::text, 'failed'::text, 'cancelled'::text]))),
    CONSTRAINT transform_runs_trigger_check CHECK ((trigger = ANY (ARRAY['manual'::text, 'schedule'::text, 'pipeline'::text, 'execute'::text, 'materialize'::text])))
);

ALTER TABLE ONLY public.transform_runs FORCE ROW LEVEL SECURITY;

ALTER TABLE public.transform_runs ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.transform_runs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.transform_sql_library (
    id text NOT NULL,
    name text NOT NULL,
    description text NOT NULL,
    category text NOT NULL,
    sql_types text[] NOT NULL,
    sql text NOT NULL,
    parameters json DEFAULT '{}'::json NOT NULL,
    checksum text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.transforms (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id text NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    sql text NOT NULL,
    parameters json DEFAULT '{}'::json NOT NULL,
    output_dataset text NOT NULL,
    materialization text DEFAULT 'table'::text NOT NULL,
    unique_key text[] DEFAULT '{}'::text[] NOT NULL,
    status text DEFAULT 'active'::text NOT NULL,
    inputs text[] DEFAULT '{}'::text[] NOT NULL,
    columns jsonb DEFAULT '[]'::jsonb NOT NULL,
    analysis_errors jsonb DEFAULT '[]'::jsonb NOT NULL,
    hydrated_at timestamp with time zone,
    origin jsonb,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT transforms_description_check CHECK ((char_length(description) <= 2000)),
    CONSTRAINT transforms_materialization_check CHECK ((materialization = ANY (ARRAY['table'::text, 'incremental'::text]))),
    CONSTRAINT transforms_name_check CHECK ((name ~ '^[A-Za-z0-9_-]{1,100}$'::text)),
    CONSTRAINT transforms_status_check CHECK ((status = ANY (ARRAY['active'::text, 'archived'::text])))
);

ALTER TABLE ONLY public.transforms FORCE ROW LEVEL SECURITY;

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
    ignore_own_results boolean DEFAULT false NOT NULL,
    acts_for jsonb,
    listen_after_snapshot pg_snapshot,
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

CREATE TABLE public.webhook_signatures (
    tenant_id text NOT NULL,
    signature_hash text NOT NULL,
    accepted_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

ALTER TABLE ONLY public.webhook_signatures FORCE ROW LEVEL SECURITY;

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

ALTER TABLE ONLY console.link_codes
    ADD CONSTRAINT link_codes_pkey PRIMARY KEY (code_hash);

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_key_hash_key UNIQUE (tenant_id, key_hash);

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.approval_cases
    ADD CONSTRAINT approval_cases_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.approval_link_uses
    ADD CONSTRAINT approval_link_uses_pkey PRIMARY KEY (tenant_id, case_id, approver);

ALTER TABLE ONLY public.chat_agents
    ADD CONSTRAINT chat_agents_pkey PRIMARY KEY (tenant_id, name);

ALTER TABLE ONLY public.chat_client_agents
    ADD CONSTRAINT chat_client_agents_pkey PRIMARY KEY (tenant_id, client_id);

ALTER TABLE ONLY public.chat_feedback
    ADD CONSTRAINT chat_feedback_pkey PRIMARY KEY (tenant_id, message_id);

ALTER TABLE ONLY public.chat_messages
    ADD CONSTRAINT chat_messages_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.chat_open_streams
    ADD CONSTRAINT chat_open_streams_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.chat_runners
    ADD CONSTRAINT chat_runners_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.chat_sessions
    ADD CONSTRAINT chat_sessions_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.chat_tenant_state
    ADD CONSTRAINT chat_tenant_state_pkey PRIMARY KEY (tenant_id);

ALTER TABLE ONLY public.chat_turn_frames
    ADD CONSTRAINT chat_turn_frames_pkey PRIMARY KEY (tenant_id, turn_id, first_seq);

ALTER TABLE ONLY public.chat_turns
    ADD CONSTRAINT chat_turns_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.citation_provenance
    ADD CONSTRAINT citation_provenance_pkey PRIMARY KEY (tenant_id, context_type, context_id, chunk_id);

ALTER TABLE ONLY public.citations
    ADD CONSTRAINT citations_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.clients
    ADD CONSTRAINT clients_client_key_key UNIQUE (client_key);

ALTER TABLE ONLY public.clients
    ADD CONSTRAINT clients_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.embed_client_keys
    ADD CONSTRAINT embed_client_keys_client_id_key UNIQUE (client_id);

ALTER TABLE ONLY public.embed_client_keys
    ADD CONSTRAINT embed_client_keys_pkey PRIMARY KEY (client_key);

ALTER TABLE ONLY public.embed_configs
    ADD CONSTRAINT embed_configs_pkey PRIMARY KEY (tenant_id, client_id);

ALTER TABLE ONLY public.event_cursors
    ADD CONSTRAINT event_cursors_pkey PRIMARY KEY (tenant_id);

ALTER TABLE ONLY public.event_types_custom
    ADD CONSTRAINT event_types_custom_pkey PRIMARY KEY (tenant_id, type);

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (tenant_id, seq);

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_tenant_id_source_id_key UNIQUE (tenant_id, source, id);

ALTER TABLE ONLY public.forms_definition_versions
    ADD CONSTRAINT forms_definition_versions_pkey PRIMARY KEY (tenant_id, definition_id, version);

ALTER TABLE ONLY public.forms_definitions
    ADD CONSTRAINT forms_definitions_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.forms_field_bindings
    ADD CONSTRAINT forms_field_bindings_pkey PRIMARY KEY (tenant_id, use_case_id, "position");

ALTER TABLE ONLY public.forms_files
    ADD CONSTRAINT forms_files_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.forms_files
    ADD CONSTRAINT forms_files_token_hash_key UNIQUE (tenant_id, token_hash);

ALTER TABLE ONLY public.forms_hydrations
    ADD CONSTRAINT forms_hydrations_pkey PRIMARY KEY (tenant_id, submission_id, attempt);

ALTER TABLE ONLY public.forms_redactions
    ADD CONSTRAINT forms_redactions_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.forms_submissions
    ADD CONSTRAINT forms_submissions_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.forms_submissions
    ADD CONSTRAINT forms_submissions_seq_key UNIQUE (tenant_id, seq);

ALTER TABLE ONLY public.forms_use_cases
    ADD CONSTRAINT forms_use_cases_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.identity_policies
    ADD CONSTRAINT identity_policies_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.identity_policy_versions
    ADD CONSTRAINT identity_policy_versions_pkey PRIMARY KEY (tenant_id, policy_id, version);

ALTER TABLE ONLY public.ingestion_blobs
    ADD CONSTRAINT ingestion_blobs_pkey PRIMARY KEY (tenant_id, content_hash);

ALTER TABLE ONLY public.ingestion_chunks
    ADD CONSTRAINT ingestion_chunks_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.ingestion_chunks
    ADD CONSTRAINT ingestion_chunks_revision_id_ordinal_key UNIQUE (tenant_id, revision_id, ordinal);

ALTER TABLE ONLY public.ingestion_collections
    ADD CONSTRAINT ingestion_collections_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.ingestion_documents
    ADD CONSTRAINT ingestion_documents_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.ingestion_page_images
    ADD CONSTRAINT ingestion_page_images_pkey PRIMARY KEY (tenant_id, revision_id, page);

ALTER TABLE ONLY public.ingestion_quota_slots
    ADD CONSTRAINT ingestion_quota_slots_pkey PRIMARY KEY (tenant_id, document_id);

ALTER TABLE ONLY public.ingestion_revisions
    ADD CONSTRAINT ingestion_revisions_document_id_revision_number_key UNIQUE (tenant_id, document_id, revision_number);

ALTER TABLE ONLY public.ingestion_revisions
    ADD CONSTRAINT ingestion_revisions_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.ingestion_sync_sources
    ADD CONSTRAINT ingestion_sync_sources_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.ingestion_sync_sources
    ADD CONSTRAINT ingestion_sync_sources_tenant_id_name_key UNIQUE (tenant_id, name);

ALTER TABLE ONLY public.ingestion_tenant_state
    ADD CONSTRAINT ingestion_tenant_state_pkey PRIMARY KEY (tenant_id);

ALTER TABLE ONLY public.ingestion_terms
    ADD CONSTRAINT ingestion_terms_pkey PRIMARY KEY (tenant_id, term);

ALTER TABLE ONLY public.integration_client_credentials
    ADD CONSTRAINT integration_client_credentials_pkey PRIMARY KEY (tenant_id, client_id, service_name);

ALTER TABLE ONLY public.integration_functions
    ADD CONSTRAINT integration_functions_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.integration_functions
    ADD CONSTRAINT integration_functions_spec_id_operation_key_key UNIQUE (tenant_id, spec_id, operation_key);

ALTER TABLE ONLY public.integration_functions
    ADD CONSTRAINT integration_functions_tenant_id_name_key UNIQUE (tenant_id, name) DEFERRABLE INITIALLY DEFERRED;

ALTER TABLE ONLY public.integration_secrets
    ADD CONSTRAINT integration_secrets_pkey PRIMARY KEY (tenant_id, key);

ALTER TABLE ONLY public.integration_session_credentials
    ADD CONSTRAINT integration_session_credentials_pkey PRIMARY KEY (tenant_id, session_id, service_name);

ALTER TABLE ONLY public.integration_specs
    ADD CONSTRAINT integration_specs_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.integration_specs
    ADD CONSTRAINT integration_specs_tenant_id_name_key UNIQUE (tenant_id, name);

ALTER TABLE ONLY public.lake_datasets
    ADD CONSTRAINT lake_datasets_dataset_id_key UNIQUE (dataset_id);

ALTER TABLE ONLY public.lake_datasets
    ADD CONSTRAINT lake_datasets_namespace_physical_table_key UNIQUE (namespace, physical_table);

ALTER TABLE ONLY public.lake_datasets
    ADD CONSTRAINT lake_datasets_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.lake_snapshots
    ADD CONSTRAINT lake_snapshots_pkey PRIMARY KEY (tenant_id, snapshot_id);

ALTER TABLE ONLY public.mail_outbox
    ADD CONSTRAINT mail_outbox_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.mail_outbox
    ADD CONSTRAINT mail_outbox_tenant_id_origin_origin_id_recipient_key UNIQUE (tenant_id, origin, origin_id, recipient);

ALTER TABLE ONLY public.occurrence_counters
    ADD CONSTRAINT occurrence_counters_pkey PRIMARY KEY (tenant_id, year);

ALTER TABLE ONLY public.occurrence_history
    ADD CONSTRAINT occurrence_history_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.occurrence_messages
    ADD CONSTRAINT occurrence_messages_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.occurrence_settings
    ADD CONSTRAINT occurrence_settings_pkey PRIMARY KEY (tenant_id);

ALTER TABLE ONLY public.occurrence_states
    ADD CONSTRAINT occurrence_states_pkey PRIMARY KEY (tenant_id, key);

ALTER TABLE ONLY public.occurrence_supports
    ADD CONSTRAINT occurrence_supports_pkey PRIMARY KEY (tenant_id, occurrence_id, client_hash);

ALTER TABLE ONLY public.occurrence_templates
    ADD CONSTRAINT occurrence_templates_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.occurrence_templates
    ADD CONSTRAINT occurrence_templates_tenant_id_name_key UNIQUE (tenant_id, name);

ALTER TABLE ONLY public.occurrence_transitions
    ADD CONSTRAINT occurrence_transitions_pkey PRIMARY KEY (tenant_id, from_state, to_state);

ALTER TABLE ONLY public.occurrence_types
    ADD CONSTRAINT occurrence_types_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.occurrence_types
    ADD CONSTRAINT occurrence_types_tenant_id_code_key UNIQUE (tenant_id, code);

ALTER TABLE ONLY public.occurrences
    ADD CONSTRAINT occurrences_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.occurrences
    ADD CONSTRAINT occurrences_tenant_id_reference_key UNIQUE (tenant_id, reference);

ALTER TABLE ONLY public.ontology_backing_datasets
    ADD CONSTRAINT ontology_backing_datasets_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.ontology_backing_datasets
    ADD CONSTRAINT ontology_backing_datasets_tenant_id_name_key UNIQUE (tenant_id, name);

ALTER TABLE ONLY public.ontology_entities
    ADD CONSTRAINT ontology_entities_pkey PRIMARY KEY (tenant_id, entity_type, key);

ALTER TABLE ONLY public.ontology_entity_type_versions
    ADD CONSTRAINT ontology_entity_type_versions_pkey PRIMARY KEY (tenant_id, code, version);

ALTER TABLE ONLY public.ontology_entity_types
    ADD CONSTRAINT ontology_entity_types_pkey PRIMARY KEY (tenant_id, code);

ALTER TABLE ONLY public.ontology_sync_logs
    ADD CONSTRAINT ontology_sync_logs_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.ontology_sync_runs
    ADD CONSTRAINT ontology_sync_runs_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.pipeline_credentials
    ADD CONSTRAINT pipeline_credentials_pkey PRIMARY KEY (tenant_id, ref);

ALTER TABLE ONLY public.pipeline_discoveries
    ADD CONSTRAINT pipeline_discoveries_pkey PRIMARY KEY (tenant_id, workflow_id);

ALTER TABLE ONLY public.pipeline_pattern_registrations
    ADD CONSTRAINT pipeline_pattern_registrations_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.pipeline_pattern_webhook_ids
    ADD CONSTRAINT pipeline_pattern_webhook_ids_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.pipeline_run_logs
    ADD CONSTRAINT pipeline_run_logs_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.pipeline_run_steps
    ADD CONSTRAINT pipeline_run_steps_pkey PRIMARY KEY (tenant_id, run_id, step_id);

ALTER TABLE ONLY public.pipeline_runs
    ADD CONSTRAINT pipeline_runs_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.pipeline_sensor_cursors
    ADD CONSTRAINT pipeline_sensor_cursors_pkey PRIMARY KEY (tenant_id);

ALTER TABLE ONLY public.pipeline_source_files
    ADD CONSTRAINT pipeline_source_files_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.pipeline_sources
    ADD CONSTRAINT pipeline_sources_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.pipeline_sources
    ADD CONSTRAINT pipeline_sources_tenant_id_name_key UNIQUE (tenant_id, name);

ALTER TABLE ONLY public.pipeline_streams
    ADD CONSTRAINT pipeline_streams_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.pipeline_sync_run_streams
    ADD CONSTRAINT pipeline_sync_run_streams_pkey PRIMARY KEY (tenant_id, run_id, stream_id);

ALTER TABLE ONLY public.pipeline_sync_runs
    ADD CONSTRAINT pipeline_sync_runs_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.pipeline_versions
    ADD CONSTRAINT pipeline_versions_pkey PRIMARY KEY (tenant_id, pipeline_id, version);

ALTER TABLE ONLY public.pipeline_workflows
    ADD CONSTRAINT pipeline_workflows_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.pipelines_ai_compositions
    ADD CONSTRAINT pipelines_ai_compositions_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.pipelines
    ADD CONSTRAINT pipelines_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.pipelines
    ADD CONSTRAINT pipelines_tenant_id_name_key UNIQUE (tenant_id, name);

ALTER TABLE ONLY public.platform_boot_state
    ADD CONSTRAINT platform_boot_state_pkey PRIMARY KEY (name);

ALTER TABLE ONLY public.platform_job_workers
    ADD CONSTRAINT platform_job_workers_pkey PRIMARY KEY (worker_id);

ALTER TABLE ONLY public.platform_migrations
    ADD CONSTRAINT platform_migrations_pkey PRIMARY KEY (plugin, name);

ALTER TABLE ONLY public.platform_rate_limits
    ADD CONSTRAINT platform_rate_limits_pkey PRIMARY KEY (limiter, key);

ALTER TABLE ONLY public.platform_settings
    ADD CONSTRAINT platform_settings_pkey PRIMARY KEY (key);

ALTER TABLE ONLY public.schedules
    ADD CONSTRAINT schedules_pkey PRIMARY KEY (tenant_id, kind, subject);

ALTER TABLE ONLY public.schema_registry
    ADD CONSTRAINT schema_registry_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.schema_registry
    ADD CONSTRAINT schema_registry_tenant_id_subject_version_key UNIQUE (tenant_id, subject, version);

ALTER TABLE ONLY public.tenant_public_origins
    ADD CONSTRAINT tenant_public_origins_pkey PRIMARY KEY (tenant_id, origin);

ALTER TABLE ONLY public.tenants
    ADD CONSTRAINT tenants_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.transform_artifacts
    ADD CONSTRAINT transform_artifacts_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.transform_generic_runs
    ADD CONSTRAINT transform_generic_runs_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.transform_patterns
    ADD CONSTRAINT transform_patterns_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.transform_runs
    ADD CONSTRAINT transform_runs_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.transform_sql_library
    ADD CONSTRAINT transform_sql_library_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.transforms
    ADD CONSTRAINT transforms_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.transforms
    ADD CONSTRAINT transforms_tenant_id_name_key UNIQUE (tenant_id, name);

ALTER TABLE ONLY public.trigger_backfills
    ADD CONSTRAINT trigger_backfills_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.trigger_dedup
    ADD CONSTRAINT trigger_dedup_pkey PRIMARY KEY (tenant_id, trigger_name, dedup_key);

ALTER TABLE ONLY public.trigger_dispatches
    ADD CONSTRAINT trigger_dispatches_pkey PRIMARY KEY (tenant_id, id);

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

ALTER TABLE ONLY public.webhook_signatures
    ADD CONSTRAINT webhook_signatures_pkey PRIMARY KEY (tenant_id, signature_hash);

ALTER TABLE ONLY public.webhook_signing_secrets
    ADD CONSTRAINT webhook_signing_secrets_pkey PRIMARY KEY (tenant_id);

ALTER TABLE ONLY public.workflow_definitions
    ADD CONSTRAINT workflow_definitions_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE ONLY public.workflow_definitions
    ADD CONSTRAINT workflow_definitions_tenant_id_name_key UNIQUE (tenant_id, name);

ALTER TABLE ONLY public.workflow_executions
    ADD CONSTRAINT workflow_executions_pkey PRIMARY KEY (tenant_id, id);

CREATE INDEX link_codes_expires_idx ON console.link_codes USING btree (expires_at);

CREATE INDEX approval_cases_execution_idx ON public.approval_cases USING btree (tenant_id, ((source ->> 'execution_id'::text))) WHERE (source_type = 'workflow'::text);

CREATE INDEX approval_cases_recent_idx ON public.approval_cases USING btree (tenant_id, created_at DESC, id DESC);

CREATE INDEX approval_cases_roles_idx ON public.approval_cases USING gin (approver_roles);

CREATE INDEX approval_cases_status_idx ON public.approval_cases USING btree (tenant_id, status, created_at DESC);

CREATE INDEX approval_cases_turn_idx ON public.approval_cases USING btree (tenant_id, ((source ->> 'turn_id'::text))) WHERE (source_type = 'agent'::text);

CREATE INDEX approval_cases_users_idx ON public.approval_cases USING gin (approver_users);

CREATE INDEX chat_client_agents_agent_idx ON public.chat_client_agents USING btree (tenant_id, agent_name);

CREATE INDEX chat_messages_session_idx ON public.chat_messages USING btree (session_id, id);

CREATE INDEX chat_open_streams_tenant_idx ON public.chat_open_streams USING btree (tenant_id, runner_id);

CREATE INDEX chat_sessions_idle_idx ON public.chat_sessions USING btree (tenant_id, last_active) WHERE is_active;

CREATE INDEX chat_sessions_owner_idx ON public.chat_sessions USING btree (tenant_id, client_id, owner_key, last_active DESC) WHERE (deleted_at IS NULL);

CREATE INDEX chat_turns_finished_idx ON public.chat_turns USING btree (tenant_id, finished_at) WHERE (finished_at IS NOT NULL);

CREATE UNIQUE INDEX chat_turns_one_active ON public.chat_turns USING btree (tenant_id, session_id) WHERE (status = ANY (ARRAY['running'::text, 'suspended'::text, 'cancelling'::text]));

CREATE INDEX chat_turns_running_idx ON public.chat_turns USING btree (tenant_id) WHERE (status = ANY (ARRAY['running'::text, 'cancelling'::text]));

CREATE INDEX chat_turns_session_idx ON public.chat_turns USING btree (session_id, created_at DESC);

CREATE INDEX chat_turns_unfinished_idx ON public.chat_turns USING btree (tenant_id, runner_id) WHERE (status = ANY (ARRAY['running'::text, 'cancelling'::text]));

CREATE INDEX citation_provenance_age_idx ON public.citation_provenance USING btree (tenant_id, first_shown_at);

CREATE INDEX citations_chunk_idx ON public.citations USING btree (tenant_id, chunk_id, revision_id, seq DESC);

CREATE INDEX citations_collection_idx ON public.citations USING btree (tenant_id, collection_id, seq DESC);

CREATE INDEX citations_context_idx ON public.citations USING btree (tenant_id, execution_context_type, execution_context_id, seq DESC);

CREATE INDEX citations_created_idx ON public.citations USING btree (tenant_id, created_at DESC);

CREATE INDEX citations_document_idx ON public.citations USING btree (tenant_id, document_id, seq DESC);

CREATE INDEX citations_document_name_idx ON public.citations USING gin (document_name public.gin_trgm_ops);

CREATE INDEX citations_message_idx ON public.citations USING btree (tenant_id, message_id, seq) WHERE (message_id IS NOT NULL);

CREATE UNIQUE INDEX citations_seq_idx ON public.citations USING btree (tenant_id, seq DESC);

CREATE INDEX citations_status_idx ON public.citations USING btree (tenant_id, verification_status, seq DESC);

CREATE INDEX clients_tenant_idx ON public.clients USING btree (tenant_id, id);

CREATE INDEX events_position_idx ON public.events USING btree (tenant_id, xid, seq);

CREATE INDEX events_time_idx ON public.events USING btree (tenant_id, "time");

CREATE INDEX events_type_idx ON public.events USING btree (tenant_id, type, seq);

CREATE UNIQUE INDEX forms_definitions_live_name ON public.forms_definitions USING btree (tenant_id, name) WHERE (deleted_at IS NULL);

CREATE INDEX forms_files_owner ON public.forms_files USING btree (tenant_id, owner_plugin, owner_id) WHERE (owner_plugin IS NOT NULL);

CREATE INDEX forms_files_submission ON public.forms_files USING btree (tenant_id, submission_id) WHERE (submission_id IS NOT NULL);

CREATE INDEX forms_files_unconsumed ON public.forms_files USING btree (tenant_id, expires_at) WHERE (consumed_at IS NULL);

CREATE INDEX forms_redactions_submission ON public.forms_redactions USING btree (tenant_id, submission_id);

CREATE INDEX forms_submissions_use_case ON public.forms_submissions USING btree (tenant_id, use_case_id, seq DESC);

CREATE INDEX forms_use_cases_definition ON public.forms_use_cases USING btree (tenant_id, definition_id) WHERE (deleted_at IS NULL);

CREATE INDEX identity_policies_list ON public.identity_policies USING btree (tenant_id, created_at, id) WHERE (deleted_at IS NULL);

CREATE UNIQUE INDEX identity_policies_name ON public.identity_policies USING btree (tenant_id, name) WHERE (deleted_at IS NULL);

CREATE INDEX ingestion_chunks_current_idx ON public.ingestion_chunks USING btree (tenant_id, collection_id) WHERE is_current;

CREATE INDEX ingestion_chunks_document_idx ON public.ingestion_chunks USING btree (tenant_id, document_id, revision_id);

CREATE INDEX ingestion_chunks_hnsw_1024 ON public.ingestion_chunks USING hnsw (((embedding)::public.vector(1024)) public.vector_cosine_ops) WHERE ((embedding_dims = 1024) AND is_current);

CREATE INDEX ingestion_chunks_hnsw_1536 ON public.ingestion_chunks USING hnsw (((embedding)::public.vector(1536)) public.vector_cosine_ops) WHERE ((embedding_dims = 1536) AND is_current);

CREATE INDEX ingestion_chunks_hnsw_384 ON public.ingestion_chunks USING hnsw (((embedding)::public.vector(384)) public.vector_cosine_ops) WHERE ((embedding_dims = 384) AND is_current);

CREATE INDEX ingestion_chunks_hnsw_768 ON public.ingestion_chunks USING hnsw (((embedding)::public.vector(768)) public.vector_cosine_ops) WHERE ((embedding_dims = 768) AND is_current);

CREATE INDEX ingestion_chunks_tsv_idx ON public.ingestion_chunks USING gin (tsv) WITH (fastupdate=off) WHERE is_current;

CREATE UNIQUE INDEX ingestion_collections_name_idx ON public.ingestion_collections USING btree (tenant_id, COALESCE(parent_id, 0), lower(name));

CREATE INDEX ingestion_collections_parent_idx ON public.ingestion_collections USING btree (tenant_id, parent_id);

CREATE UNIQUE INDEX ingestion_collections_scope_idx ON public.ingestion_collections USING btree (tenant_id, scope) WHERE (scope IS NOT NULL);

CREATE INDEX ingestion_documents_collection_idx ON public.ingestion_documents USING btree (tenant_id, collection_id, created_at DESC, id);

CREATE INDEX ingestion_documents_completed_idx ON public.ingestion_documents USING btree (tenant_id, completed_at) WHERE (completed_at IS NOT NULL);

CREATE UNIQUE INDEX ingestion_documents_source_key_idx ON public.ingestion_documents USING btree (tenant_id, source_id, source_key) WHERE ((source_id IS NOT NULL) AND (deleted_at IS NULL));

CREATE INDEX ingestion_documents_status_idx ON public.ingestion_documents USING btree (tenant_id, ingestion_status, created_at);

CREATE INDEX ingestion_page_images_current_idx ON public.ingestion_page_images USING btree (tenant_id, collection_id) WHERE is_current;

CREATE INDEX ingestion_terms_trgm_idx ON public.ingestion_terms USING gin (term public.gin_trgm_ops) WITH (fastupdate=off);

CREATE INDEX integration_functions_spec_idx ON public.integration_functions USING btree (tenant_id, spec_id, name);

CREATE INDEX lake_datasets_tenant ON public.lake_datasets USING btree (tenant_id, dataset_id);

CREATE INDEX lake_snapshots_dataset ON public.lake_snapshots USING btree (dataset_ref, snapshot_id DESC);

CREATE INDEX mail_outbox_due_idx ON public.mail_outbox USING btree (tenant_id, next_attempt_at) WHERE (state = ANY (ARRAY['pending'::text, 'sending'::text, 'failed'::text]));

CREATE INDEX mail_outbox_state_idx ON public.mail_outbox USING btree (tenant_id, state, id);

CREATE INDEX occurrence_history_occurrence ON public.occurrence_history USING btree (tenant_id, occurrence_id, id);

CREATE INDEX occurrence_messages_occurrence ON public.occurrence_messages USING btree (tenant_id, occurrence_id, id);

CREATE UNIQUE INDEX occurrence_states_one_initial ON public.occurrence_states USING btree (tenant_id) WHERE is_initial;

CREATE INDEX occurrence_templates_on_enter ON public.occurrence_templates USING btree (tenant_id) WHERE send_on_enter;

CREATE INDEX occurrences_box ON public.occurrences USING btree (tenant_id, type_id, latitude, longitude, created_at);

CREATE INDEX occurrences_fts ON public.occurrences USING gin (search_vector);

CREATE INDEX occurrences_recent ON public.occurrences USING btree (tenant_id, created_at DESC, id DESC);

CREATE INDEX occurrences_state ON public.occurrences USING btree (tenant_id, state, created_at DESC);

CREATE INDEX occurrences_trgm ON public.occurrences USING gin (search_text public.gin_trgm_ops);

CREATE INDEX ontology_entities_backing ON public.ontology_entities USING btree (tenant_id, backing_dataset_id);

CREATE INDEX ontology_sync_logs_run ON public.ontology_sync_logs USING btree (tenant_id, run_id, id);

CREATE INDEX ontology_sync_runs_dataset ON public.ontology_sync_runs USING btree (tenant_id, backing_dataset_id, created_at DESC);

CREATE INDEX pipeline_pattern_webhook_ids_expires ON public.pipeline_pattern_webhook_ids USING btree (expires_at);

CREATE INDEX pipeline_run_logs_run ON public.pipeline_run_logs USING btree (run_id, id);

CREATE UNIQUE INDEX pipeline_runs_one_live ON public.pipeline_runs USING btree (tenant_id, pipeline_id) WHERE ((kind = 'production'::text) AND (status = 'running'::text));

CREATE INDEX pipeline_runs_pipeline ON public.pipeline_runs USING btree (tenant_id, pipeline_id, started_at DESC);

CREATE INDEX pipeline_sources_credential ON public.pipeline_sources USING btree (tenant_id, credential_ref) WHERE (credential_ref IS NOT NULL);

CREATE UNIQUE INDEX pipeline_streams_destination ON public.pipeline_streams USING btree (tenant_id, destination);

CREATE UNIQUE INDEX pipeline_streams_name ON public.pipeline_streams USING btree (tenant_id, source_id, COALESCE(namespace, ''::text), name);

CREATE UNIQUE INDEX pipeline_sync_runs_one_live ON public.pipeline_sync_runs USING btree (tenant_id, source_id) WHERE (status = ANY (ARRAY['queued'::text, 'running'::text]));

CREATE INDEX pipeline_sync_runs_source ON public.pipeline_sync_runs USING btree (tenant_id, source_id, created_at DESC);

CREATE INDEX pipeline_sync_runs_workflow ON public.pipeline_sync_runs USING btree (workflow_id);

CREATE INDEX pipeline_workflows_tenant ON public.pipeline_workflows USING btree (tenant_id, created_at DESC);

CREATE INDEX pipelines_ai_compositions_tenant ON public.pipelines_ai_compositions USING btree (tenant_id, created_at);

CREATE INDEX platform_rate_limits_full_idx ON public.platform_rate_limits USING btree (full_at);

CREATE INDEX schedules_kind ON public.schedules USING btree (kind, tenant_id);

CREATE INDEX schema_registry_search ON public.schema_registry USING gin (subject public.gin_trgm_ops);

CREATE INDEX transform_artifacts_run ON public.transform_artifacts USING btree (tenant_id, run_id);

CREATE INDEX transform_artifacts_tenant ON public.transform_artifacts USING btree (tenant_id, created_at DESC, id);

CREATE INDEX transform_generic_runs_tenant ON public.transform_generic_runs USING btree (tenant_id, id DESC);

CREATE UNIQUE INDEX transform_runs_orchestrator ON public.transform_runs USING btree (tenant_id, orchestrator_run_id, transform_id) WHERE (orchestrator_run_id IS NOT NULL);

CREATE INDEX transform_runs_transform ON public.transform_runs USING btree (tenant_id, transform_id, id DESC);

CREATE INDEX transforms_output ON public.transforms USING btree (tenant_id, output_dataset);

CREATE INDEX trigger_dedup_window_idx ON public.trigger_dedup USING btree (tenant_id, window_start);

CREATE INDEX trigger_dispatches_created_idx ON public.trigger_dispatches USING btree (tenant_id, created_at);

CREATE INDEX trigger_dispatches_execution_idx ON public.trigger_dispatches USING btree (tenant_id, execution_id) WHERE (execution_id IS NOT NULL);

CREATE INDEX trigger_dispatches_trigger_idx ON public.trigger_dispatches USING btree (tenant_id, trigger_name, id DESC);

CREATE INDEX triggers_active_idx ON public.triggers USING btree (tenant_id, kind) WHERE active;

CREATE INDEX users_organizations_idx ON public.users USING gin (organizations);

CREATE INDEX webhook_deliveries_received_idx ON public.webhook_deliveries USING btree (tenant_id, received_at);

CREATE INDEX webhook_signatures_expires_idx ON public.webhook_signatures USING btree (tenant_id, expires_at);

CREATE INDEX workflow_executions_recent_idx ON public.workflow_executions USING btree (tenant_id, created_at DESC, id DESC);

CREATE INDEX workflow_executions_status_idx ON public.workflow_executions USING btree (tenant_id, status, created_at DESC);

CREATE INDEX workflow_executions_workflow_idx ON public.workflow_executions USING btree (tenant_id, workflow_name, created_at DESC);

CREATE TRIGGER forms_definition_versions_immutable BEFORE UPDATE ON public.forms_definition_versions FOR EACH ROW EXECUTE FUNCTION public.forms_version_immutable();

CREATE TRIGGER forms_submissions_immutable BEFORE UPDATE ON public.forms_submissions FOR EACH ROW EXECUTE FUNCTION public.forms_submission_immutable();

CREATE TRIGGER ingestion_revisions_immutable BEFORE UPDATE ON public.ingestion_revisions FOR EACH ROW EXECUTE FUNCTION public.ingestion_revision_immutable();

CREATE TRIGGER pipeline_sources_drop_schedule AFTER DELETE ON public.pipeline_sources FOR EACH ROW EXECUTE FUNCTION public.pipeline_sources_drop_schedule();

CREATE TRIGGER pipelines_drop_schedule AFTER DELETE ON public.pipelines FOR EACH ROW EXECUTE FUNCTION public.pipelines_drop_schedule();

CREATE TRIGGER transforms_drop_schedule AFTER DELETE ON public.transforms FOR EACH ROW EXECUTE FUNCTION public.transforms_drop_schedule();

CREATE TRIGGER triggers_drop_schedule AFTER DELETE ON public.triggers FOR EACH ROW EXECUTE FUNCTION public.triggers_drop_schedule();

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_client_id_fkey FOREIGN KEY (client_id) REFERENCES public.clients(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.approval_cases
    ADD CONSTRAINT approval_cases_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.approval_link_uses
    ADD CONSTRAINT approval_link_uses_tenant_id_case_id_fkey FOREIGN KEY (tenant_id, case_id) REFERENCES public.approval_cases(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.approval_link_uses
    ADD CONSTRAINT approval_link_uses_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_agents
    ADD CONSTRAINT chat_agents_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_client_agents
    ADD CONSTRAINT chat_client_agents_client_id_fkey FOREIGN KEY (client_id) REFERENCES public.clients(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_client_agents
    ADD CONSTRAINT chat_client_agents_tenant_id_agent_name_fkey FOREIGN KEY (tenant_id, agent_name) REFERENCES public.chat_agents(tenant_id, name);

ALTER TABLE ONLY public.chat_client_agents
    ADD CONSTRAINT chat_client_agents_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_feedback
    ADD CONSTRAINT chat_feedback_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_feedback
    ADD CONSTRAINT chat_feedback_tenant_id_message_id_fkey FOREIGN KEY (tenant_id, message_id) REFERENCES public.chat_messages(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_feedback
    ADD CONSTRAINT chat_feedback_tenant_id_session_id_fkey FOREIGN KEY (tenant_id, session_id) REFERENCES public.chat_sessions(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_messages
    ADD CONSTRAINT chat_messages_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_messages
    ADD CONSTRAINT chat_messages_tenant_id_session_id_fkey FOREIGN KEY (tenant_id, session_id) REFERENCES public.chat_sessions(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_open_streams
    ADD CONSTRAINT chat_open_streams_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_sessions
    ADD CONSTRAINT chat_sessions_client_id_fkey FOREIGN KEY (client_id) REFERENCES public.clients(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_sessions
    ADD CONSTRAINT chat_sessions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_tenant_state
    ADD CONSTRAINT chat_tenant_state_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_turn_frames
    ADD CONSTRAINT chat_turn_frames_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_turn_frames
    ADD CONSTRAINT chat_turn_frames_tenant_id_turn_id_fkey FOREIGN KEY (tenant_id, turn_id) REFERENCES public.chat_turns(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_turns
    ADD CONSTRAINT chat_turns_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.chat_turns
    ADD CONSTRAINT chat_turns_tenant_id_session_id_fkey FOREIGN KEY (tenant_id, session_id) REFERENCES public.chat_sessions(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.citation_provenance
    ADD CONSTRAINT citation_provenance_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.citations
    ADD CONSTRAINT citations_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.clients
    ADD CONSTRAINT clients_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.embed_client_keys
    ADD CONSTRAINT embed_client_keys_client_id_fkey FOREIGN KEY (client_id) REFERENCES public.clients(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.embed_client_keys
    ADD CONSTRAINT embed_client_keys_tenant_alias_fkey FOREIGN KEY (tenant_alias) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.embed_configs
    ADD CONSTRAINT embed_configs_client_id_fkey FOREIGN KEY (client_id) REFERENCES public.clients(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.embed_configs
    ADD CONSTRAINT embed_configs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.event_cursors
    ADD CONSTRAINT event_cursors_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.event_types_custom
    ADD CONSTRAINT event_types_custom_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.forms_definition_versions
    ADD CONSTRAINT forms_definition_versions_tenant_id_definition_id_fkey FOREIGN KEY (tenant_id, definition_id) REFERENCES public.forms_definitions(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.forms_definition_versions
    ADD CONSTRAINT forms_definition_versions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.forms_definitions
    ADD CONSTRAINT forms_definitions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.forms_field_bindings
    ADD CONSTRAINT forms_field_bindings_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.forms_field_bindings
    ADD CONSTRAINT forms_field_bindings_tenant_id_use_case_id_fkey FOREIGN KEY (tenant_id, use_case_id) REFERENCES public.forms_use_cases(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.forms_files
    ADD CONSTRAINT forms_files_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.forms_files
    ADD CONSTRAINT forms_files_tenant_id_submission_id_fkey FOREIGN KEY (tenant_id, submission_id) REFERENCES public.forms_submissions(tenant_id, id);

ALTER TABLE ONLY public.forms_hydrations
    ADD CONSTRAINT forms_hydrations_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.forms_hydrations
    ADD CONSTRAINT forms_hydrations_tenant_id_submission_id_fkey FOREIGN KEY (tenant_id, submission_id) REFERENCES public.forms_submissions(tenant_id, id);

ALTER TABLE ONLY public.forms_redactions
    ADD CONSTRAINT forms_redactions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.forms_redactions
    ADD CONSTRAINT forms_redactions_tenant_id_submission_id_fkey FOREIGN KEY (tenant_id, submission_id) REFERENCES public.forms_submissions(tenant_id, id);

ALTER TABLE ONLY public.forms_submissions
    ADD CONSTRAINT forms_submissions_tenant_id_definition_id_form_version_fkey FOREIGN KEY (tenant_id, definition_id, form_version) REFERENCES public.forms_definition_versions(tenant_id, definition_id, version);

ALTER TABLE ONLY public.forms_submissions
    ADD CONSTRAINT forms_submissions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.forms_submissions
    ADD CONSTRAINT forms_submissions_tenant_id_use_case_id_fkey FOREIGN KEY (tenant_id, use_case_id) REFERENCES public.forms_use_cases(tenant_id, id);

ALTER TABLE ONLY public.forms_use_cases
    ADD CONSTRAINT forms_use_cases_tenant_id_definition_id_fkey FOREIGN KEY (tenant_id, definition_id) REFERENCES public.forms_definitions(tenant_id, id);

ALTER TABLE ONLY public.forms_use_cases
    ADD CONSTRAINT forms_use_cases_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.identity_policies
    ADD CONSTRAINT identity_policies_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.identity_policy_versions
    ADD CONSTRAINT identity_policy_versions_policy_id_fkey FOREIGN KEY (tenant_id, policy_id) REFERENCES public.identity_policies(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.identity_policy_versions
    ADD CONSTRAINT identity_policy_versions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ingestion_blobs
    ADD CONSTRAINT ingestion_blobs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ingestion_chunks
    ADD CONSTRAINT ingestion_chunks_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ingestion_chunks
    ADD CONSTRAINT ingestion_chunks_tenant_id_revision_id_fkey FOREIGN KEY (tenant_id, revision_id) REFERENCES public.ingestion_revisions(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ingestion_collections
    ADD CONSTRAINT ingestion_collections_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ingestion_collections
    ADD CONSTRAINT ingestion_collections_tenant_id_parent_id_fkey FOREIGN KEY (tenant_id, parent_id) REFERENCES public.ingestion_collections(tenant_id, id);

ALTER TABLE ONLY public.ingestion_documents
    ADD CONSTRAINT ingestion_documents_tenant_id_collection_id_fkey FOREIGN KEY (tenant_id, collection_id) REFERENCES public.ingestion_collections(tenant_id, id);

ALTER TABLE ONLY public.ingestion_documents
    ADD CONSTRAINT ingestion_documents_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ingestion_documents
    ADD CONSTRAINT ingestion_documents_tenant_id_source_id_fkey FOREIGN KEY (tenant_id, source_id) REFERENCES public.ingestion_sync_sources(tenant_id, id) ON DELETE SET NULL (source_id);

ALTER TABLE ONLY public.ingestion_page_images
    ADD CONSTRAINT ingestion_page_images_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ingestion_page_images
    ADD CONSTRAINT ingestion_page_images_tenant_id_revision_id_fkey FOREIGN KEY (tenant_id, revision_id) REFERENCES public.ingestion_revisions(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ingestion_quota_slots
    ADD CONSTRAINT ingestion_quota_slots_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ingestion_revisions
    ADD CONSTRAINT ingestion_revisions_tenant_id_document_id_fkey FOREIGN KEY (tenant_id, document_id) REFERENCES public.ingestion_documents(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ingestion_revisions
    ADD CONSTRAINT ingestion_revisions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ingestion_sync_sources
    ADD CONSTRAINT ingestion_sync_sources_tenant_id_collection_id_fkey FOREIGN KEY (tenant_id, collection_id) REFERENCES public.ingestion_collections(tenant_id, id);

ALTER TABLE ONLY public.ingestion_sync_sources
    ADD CONSTRAINT ingestion_sync_sources_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ingestion_tenant_state
    ADD CONSTRAINT ingestion_tenant_state_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ingestion_terms
    ADD CONSTRAINT ingestion_terms_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.integration_client_credentials
    ADD CONSTRAINT integration_client_credentials_client_id_fkey FOREIGN KEY (client_id) REFERENCES public.clients(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.integration_client_credentials
    ADD CONSTRAINT integration_client_credentials_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.integration_functions
    ADD CONSTRAINT integration_functions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.integration_functions
    ADD CONSTRAINT integration_functions_tenant_id_spec_id_fkey FOREIGN KEY (tenant_id, spec_id) REFERENCES public.integration_specs(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.integration_secrets
    ADD CONSTRAINT integration_secrets_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.integration_session_credentials
    ADD CONSTRAINT integration_session_credentials_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.integration_specs
    ADD CONSTRAINT integration_specs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.lake_datasets
    ADD CONSTRAINT lake_datasets_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.lake_snapshots
    ADD CONSTRAINT lake_snapshots_dataset_ref_fkey FOREIGN KEY (dataset_ref) REFERENCES public.lake_datasets(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.lake_snapshots
    ADD CONSTRAINT lake_snapshots_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.mail_outbox
    ADD CONSTRAINT mail_outbox_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrence_counters
    ADD CONSTRAINT occurrence_counters_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrence_history
    ADD CONSTRAINT occurrence_history_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrence_history
    ADD CONSTRAINT occurrence_history_tenant_id_occurrence_id_fkey FOREIGN KEY (tenant_id, occurrence_id) REFERENCES public.occurrences(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrence_messages
    ADD CONSTRAINT occurrence_messages_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrence_messages
    ADD CONSTRAINT occurrence_messages_tenant_id_occurrence_id_fkey FOREIGN KEY (tenant_id, occurrence_id) REFERENCES public.occurrences(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrence_settings
    ADD CONSTRAINT occurrence_settings_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrence_states
    ADD CONSTRAINT occurrence_states_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrence_supports
    ADD CONSTRAINT occurrence_supports_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrence_supports
    ADD CONSTRAINT occurrence_supports_tenant_id_occurrence_id_fkey FOREIGN KEY (tenant_id, occurrence_id) REFERENCES public.occurrences(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrence_templates
    ADD CONSTRAINT occurrence_templates_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrence_transitions
    ADD CONSTRAINT occurrence_transitions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrence_transitions
    ADD CONSTRAINT occurrence_transitions_tenant_id_from_state_fkey FOREIGN KEY (tenant_id, from_state) REFERENCES public.occurrence_states(tenant_id, key) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrence_transitions
    ADD CONSTRAINT occurrence_transitions_tenant_id_to_state_fkey FOREIGN KEY (tenant_id, to_state) REFERENCES public.occurrence_states(tenant_id, key) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrence_types
    ADD CONSTRAINT occurrence_types_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrences
    ADD CONSTRAINT occurrences_tenant_id_duplicate_of_fkey FOREIGN KEY (tenant_id, duplicate_of) REFERENCES public.occurrences(tenant_id, id);

ALTER TABLE ONLY public.occurrences
    ADD CONSTRAINT occurrences_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.occurrences
    ADD CONSTRAINT occurrences_tenant_id_type_id_fkey FOREIGN KEY (tenant_id, type_id) REFERENCES public.occurrence_types(tenant_id, id);

ALTER TABLE ONLY public.ontology_backing_datasets
    ADD CONSTRAINT ontology_backing_datasets_tenant_id_entity_type_fkey FOREIGN KEY (tenant_id, entity_type) REFERENCES public.ontology_entity_types(tenant_id, code);

ALTER TABLE ONLY public.ontology_backing_datasets
    ADD CONSTRAINT ontology_backing_datasets_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ontology_entities
    ADD CONSTRAINT ontology_entities_backing_dataset_id_fkey FOREIGN KEY (tenant_id, backing_dataset_id) REFERENCES public.ontology_backing_datasets(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ontology_entities
    ADD CONSTRAINT ontology_entities_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ontology_entity_type_versions
    ADD CONSTRAINT ontology_entity_type_versions_tenant_id_code_fkey FOREIGN KEY (tenant_id, code) REFERENCES public.ontology_entity_types(tenant_id, code) ON DELETE CASCADE;

ALTER TABLE ONLY public.ontology_entity_types
    ADD CONSTRAINT ontology_entity_types_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ontology_sync_logs
    ADD CONSTRAINT ontology_sync_logs_run_id_fkey FOREIGN KEY (tenant_id, run_id) REFERENCES public.ontology_sync_runs(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ontology_sync_logs
    ADD CONSTRAINT ontology_sync_logs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ontology_sync_runs
    ADD CONSTRAINT ontology_sync_runs_backing_dataset_id_fkey FOREIGN KEY (tenant_id, backing_dataset_id) REFERENCES public.ontology_backing_datasets(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.ontology_sync_runs
    ADD CONSTRAINT ontology_sync_runs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_credentials
    ADD CONSTRAINT pipeline_credentials_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_discoveries
    ADD CONSTRAINT pipeline_discoveries_source_id_fkey FOREIGN KEY (tenant_id, source_id) REFERENCES public.pipeline_sources(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_discoveries
    ADD CONSTRAINT pipeline_discoveries_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_run_logs
    ADD CONSTRAINT pipeline_run_logs_run_id_fkey FOREIGN KEY (tenant_id, run_id) REFERENCES public.pipeline_sync_runs(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_run_logs
    ADD CONSTRAINT pipeline_run_logs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_run_steps
    ADD CONSTRAINT pipeline_run_steps_run_id_fkey FOREIGN KEY (tenant_id, run_id) REFERENCES public.pipeline_runs(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_run_steps
    ADD CONSTRAINT pipeline_run_steps_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_runs
    ADD CONSTRAINT pipeline_runs_pipeline_id_fkey FOREIGN KEY (tenant_id, pipeline_id) REFERENCES public.pipelines(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_runs
    ADD CONSTRAINT pipeline_runs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_sensor_cursors
    ADD CONSTRAINT pipeline_sensor_cursors_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_source_files
    ADD CONSTRAINT pipeline_source_files_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_sources
    ADD CONSTRAINT pipeline_sources_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_streams
    ADD CONSTRAINT pipeline_streams_source_id_fkey FOREIGN KEY (tenant_id, source_id) REFERENCES public.pipeline_sources(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_streams
    ADD CONSTRAINT pipeline_streams_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_sync_run_streams
    ADD CONSTRAINT pipeline_sync_run_streams_run_id_fkey FOREIGN KEY (tenant_id, run_id) REFERENCES public.pipeline_sync_runs(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_sync_run_streams
    ADD CONSTRAINT pipeline_sync_run_streams_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_sync_runs
    ADD CONSTRAINT pipeline_sync_runs_source_id_fkey FOREIGN KEY (tenant_id, source_id) REFERENCES public.pipeline_sources(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_sync_runs
    ADD CONSTRAINT pipeline_sync_runs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_versions
    ADD CONSTRAINT pipeline_versions_pipeline_id_fkey FOREIGN KEY (tenant_id, pipeline_id) REFERENCES public.pipelines(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_versions
    ADD CONSTRAINT pipeline_versions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipeline_workflows
    ADD CONSTRAINT pipeline_workflows_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipelines_ai_compositions
    ADD CONSTRAINT pipelines_ai_compositions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pipelines
    ADD CONSTRAINT pipelines_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.schedules
    ADD CONSTRAINT schedules_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.schema_registry
    ADD CONSTRAINT schema_registry_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.tenant_public_origins
    ADD CONSTRAINT tenant_public_origins_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.transform_artifacts
    ADD CONSTRAINT transform_artifacts_run_id_fkey FOREIGN KEY (tenant_id, run_id) REFERENCES public.transform_runs(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.transform_artifacts
    ADD CONSTRAINT transform_artifacts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.transform_artifacts
    ADD CONSTRAINT transform_artifacts_transform_id_fkey FOREIGN KEY (tenant_id, transform_id) REFERENCES public.transforms(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.transform_generic_runs
    ADD CONSTRAINT transform_generic_runs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.transform_generic_runs
    ADD CONSTRAINT transform_generic_runs_triggering_transform_id_fkey FOREIGN KEY (tenant_id, triggering_transform_id) REFERENCES public.transforms(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.transform_runs
    ADD CONSTRAINT transform_runs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.transform_runs
    ADD CONSTRAINT transform_runs_transform_id_fkey FOREIGN KEY (tenant_id, transform_id) REFERENCES public.transforms(tenant_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.transforms
    ADD CONSTRAINT transforms_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

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

ALTER TABLE ONLY public.webhook_signatures
    ADD CONSTRAINT webhook_signatures_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.webhook_signing_secrets
    ADD CONSTRAINT webhook_signing_secrets_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.workflow_definitions
    ADD CONSTRAINT workflow_definitions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.workflow_executions
    ADD CONSTRAINT workflow_executions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;

ALTER TABLE public.api_keys ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.approval_cases ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.approval_link_uses ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.chat_agents ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.chat_client_agents ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.chat_feedback ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.chat_messages ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.chat_open_streams ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.chat_sessions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.chat_tenant_state ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.chat_turn_frames ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.chat_turns ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.citation_provenance ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.citations ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.clients ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.embed_client_keys ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.embed_configs ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.event_cursors ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.event_types_custom ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.events ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.forms_definition_versions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.forms_definitions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.forms_field_bindings ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.forms_files ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.forms_hydrations ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.forms_redactions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.forms_submissions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.forms_use_cases ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.identity_policies ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.identity_policy_versions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ingestion_blobs ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ingestion_chunks ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ingestion_collections ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ingestion_documents ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ingestion_page_images ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ingestion_quota_slots ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ingestion_revisions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ingestion_sync_sources ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ingestion_tenant_state ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ingestion_terms ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.integration_client_credentials ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.integration_functions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.integration_secrets ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.integration_session_credentials ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.integration_specs ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.lake_datasets ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.lake_snapshots ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.mail_outbox ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.occurrence_counters ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.occurrence_history ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.occurrence_messages ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.occurrence_settings ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.occurrence_states ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.occurrence_supports ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.occurrence_templates ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.occurrence_transitions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.occurrence_types ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.occurrences ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ontology_backing_datasets ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ontology_entities ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ontology_entity_type_versions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ontology_entity_types ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ontology_sync_logs ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ontology_sync_runs ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_credentials ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_discoveries ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_pattern_registrations ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_pattern_webhook_ids ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_run_logs ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_run_steps ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_runs ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_sensor_cursors ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_source_files ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_sources ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_streams ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_sync_run_streams ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_sync_runs ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_versions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipeline_workflows ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipelines ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.pipelines_ai_compositions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.schedules ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.schema_registry ENABLE ROW LEVEL SECURITY;

CREATE POLICY shared_read ON public.lake_datasets FOR SELECT USING (shared);

CREATE POLICY shared_read ON public.lake_snapshots FOR SELECT USING (shared);

CREATE POLICY tenant_isolation ON public.api_keys USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.approval_cases USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.approval_link_uses USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.chat_agents USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.chat_client_agents USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.chat_feedback USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.chat_messages USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.chat_open_streams USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.chat_sessions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.chat_tenant_state USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.chat_turn_frames USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.chat_turns USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.citation_provenance USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.citations USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.clients USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.embed_configs USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.event_cursors USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.event_types_custom USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.events USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.forms_definition_versions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.forms_definitions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.forms_field_bindings USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.forms_files USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.forms_hydrations USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.forms_redactions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.forms_submissions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.forms_use_cases USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.identity_policies USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.identity_policy_versions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ingestion_blobs USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ingestion_chunks USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ingestion_collections USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ingestion_documents USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ingestion_page_images USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ingestion_quota_slots USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ingestion_revisions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ingestion_sync_sources USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ingestion_tenant_state USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ingestion_terms USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.integration_client_credentials USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.integration_functions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.integration_secrets USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.integration_session_credentials USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.integration_specs USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.lake_datasets USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.lake_snapshots USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.mail_outbox USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.occurrence_counters USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.occurrence_history USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.occurrence_messages USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.occurrence_settings USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.occurrence_states USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.occurrence_supports USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.occurrence_templates USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.occurrence_transitions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.occurrence_types USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.occurrences USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ontology_backing_datasets USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ontology_entities USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ontology_entity_type_versions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ontology_entity_types USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ontology_sync_logs USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.ontology_sync_runs USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.pipeline_credentials USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.pipeline_discoveries USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.pipeline_run_logs USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.pipeline_run_steps USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.pipeline_runs USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.pipeline_sensor_cursors USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.pipeline_source_files USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.pipeline_sources USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.pipeline_streams USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.pipeline_sync_run_streams USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.pipeline_sync_runs USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.pipeline_versions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.pipeline_workflows USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.pipelines USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.pipelines_ai_compositions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.schedules USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.schema_registry USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.tenant_public_origins USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.transform_artifacts USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.transform_generic_runs USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.transform_runs USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.transforms USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.trigger_backfills USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.trigger_dedup USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.trigger_dispatches USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.triggers USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.webhook_definitions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.webhook_deliveries USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.webhook_rate USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.webhook_signatures USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.webhook_signing_secrets USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.workflow_definitions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

CREATE POLICY tenant_isolation ON public.workflow_executions USING ((tenant_id = current_setting('app.tenant_id'::text, true))) WITH CHECK ((tenant_id = current_setting('app.tenant_id'::text, true)));

ALTER TABLE public.tenant_public_origins ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.transform_artifacts ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.transform_generic_runs ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.transform_patterns ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.transform_runs ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.transform_sql_library ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.transforms ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.trigger_backfills ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.trigger_dedup ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.trigger_dispatches ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.triggers ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.webhook_definitions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.webhook_deliveries ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.webhook_rate ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.webhook_signatures ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.webhook_signing_secrets ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.workflow_definitions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.workflow_executions ENABLE ROW LEVEL SECURITY;

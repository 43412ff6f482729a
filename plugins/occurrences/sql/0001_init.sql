-- Occurrences plugin: occurrence types, per-tenant states and their
-- transition graph, occurrences with their history, message templates and
-- recorded messages, a per-tenant reference counter and service area.
-- Every table is tenant-owned (forced row-level security).

CREATE TABLE occurrence_settings (
  tenant_id text PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  -- A GeoJSON Polygon or MultiPolygon; null: no service area check.
  service_area jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);
SELECT platform_enable_tenant_rls('occurrence_settings');

CREATE TABLE occurrence_types (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  code text NOT NULL CHECK (code ~ '^[A-Za-z0-9_.-]{1,64}$'),
  form_schema jsonb NOT NULL,
  duplicate_policy text NOT NULL DEFAULT 'warn' CHECK (duplicate_policy IN ('allow', 'warn', 'reject')),
  duplicate_radius_m integer NOT NULL DEFAULT 50 CHECK (duplicate_radius_m BETWEEN 1 AND 100000),
  duplicate_window_days integer NOT NULL DEFAULT 30 CHECK (duplicate_window_days BETWEEN 1 AND 3650),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, code),
  UNIQUE (tenant_id, id)
);
SELECT platform_enable_tenant_rls('occurrence_types');

-- States are seeded lazily, on a tenant's first use of them (store/states.ts).
CREATE TABLE occurrence_states (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  key text NOT NULL CHECK (key ~ '^[a-z][a-z0-9_]{0,63}$'),
  label text NOT NULL CHECK (char_length(label) BETWEEN 1 AND 200),
  is_initial boolean NOT NULL DEFAULT false,
  is_final boolean NOT NULL DEFAULT false,
  position integer NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, key),
  CHECK (NOT (is_initial AND is_final))
);
CREATE UNIQUE INDEX occurrence_states_one_initial ON occurrence_states (tenant_id) WHERE is_initial;
SELECT platform_enable_tenant_rls('occurrence_states');

CREATE TABLE occurrence_transitions (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  from_state text NOT NULL,
  to_state text NOT NULL,
  PRIMARY KEY (tenant_id, from_state, to_state),
  FOREIGN KEY (tenant_id, from_state) REFERENCES occurrence_states (tenant_id, key) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, to_state) REFERENCES occurrence_states (tenant_id, key) ON DELETE CASCADE,
  CHECK (from_state <> to_state)
);
SELECT platform_enable_tenant_rls('occurrence_transitions');

-- One row per tenant and year: the last number handed out in a reference (OC-2026-000123).
CREATE TABLE occurrence_counters (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  year integer NOT NULL,
  last integer NOT NULL,
  PRIMARY KEY (tenant_id, year)
);
SELECT platform_enable_tenant_rls('occurrence_counters');

-- A state is kept by key without a foreign key: the graph may be edited while
-- occurrences sit in a state (an unknown state then allows no transition).
CREATE TABLE occurrences (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  reference text NOT NULL,
  type_id bigint NOT NULL,
  title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 300),
  description text NOT NULL DEFAULT '',
  latitude double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
  longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
  address text,
  reporter_name text,
  reporter_email text,
  reporter_phone text,
  dynamic_fields jsonb NOT NULL DEFAULT '{}',
  attachments jsonb NOT NULL DEFAULT '[]',
  state text NOT NULL,
  duplicate_of bigint,
  source text NOT NULL CHECK (source IN ('public', 'staff', 'form', 'open311')),
  submitted_by text,
  search_text text GENERATED ALWAYS AS (title || ' ' || description) STORED,
  -- Kept, not computed per candidate: the duplicate check ranks by it.
  search_vector tsvector GENERATED ALWAYS AS (to_tsvector('simple', title || ' ' || description)) STORED,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, reference),
  UNIQUE (tenant_id, id),
  FOREIGN KEY (tenant_id, type_id) REFERENCES occurrence_types (tenant_id, id),
  FOREIGN KEY (tenant_id, duplicate_of) REFERENCES occurrences (tenant_id, id)
);
-- The duplicate check's bounding box: an index range on latitude, longitude
-- checked from the index, per type (no PostGIS; see the README).
CREATE INDEX occurrences_box ON occurrences (tenant_id, type_id, latitude, longitude, created_at);
CREATE INDEX occurrences_recent ON occurrences (tenant_id, created_at DESC, id DESC);
CREATE INDEX occurrences_state ON occurrences (tenant_id, state, created_at DESC);
CREATE INDEX occurrences_trgm ON occurrences USING gin (search_text gin_trgm_ops);
CREATE INDEX occurrences_fts ON occurrences USING gin (search_vector);
SELECT platform_enable_tenant_rls('occurrences');

CREATE TABLE occurrence_history (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  occurrence_id bigint NOT NULL,
  from_state text,
  to_state text NOT NULL,
  comment text NOT NULL DEFAULT '',
  actor text,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, occurrence_id) REFERENCES occurrences (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX occurrence_history_occurrence ON occurrence_history (tenant_id, occurrence_id, id);
SELECT platform_enable_tenant_rls('occurrence_history');

-- Empty type_ids / states: the template applies to every type / state.
CREATE TABLE occurrence_templates (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  channel text NOT NULL CHECK (channel IN ('email', 'sms', 'note')),
  subject text NOT NULL DEFAULT '',
  body text NOT NULL,
  type_ids bigint[] NOT NULL DEFAULT '{}',
  states text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, name)
);
SELECT platform_enable_tenant_rls('occurrence_templates');

CREATE TABLE occurrence_messages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  occurrence_id bigint NOT NULL,
  template_id bigint,
  channel text NOT NULL,
  subject text NOT NULL DEFAULT '',
  body text NOT NULL,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, occurrence_id) REFERENCES occurrences (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX occurrence_messages_occurrence ON occurrence_messages (tenant_id, occurrence_id, id);
SELECT platform_enable_tenant_rls('occurrence_messages');

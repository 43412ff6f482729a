-- Events plugin: the per-tenant durable event stream, custom event types,
-- triggers, their dispatches and dedup windows. Every table is tenant-owned.

-- One row per tenant stream. Emitting takes `last_seq + 1` with an UPDATE that
-- holds the row until the emitting transaction ends: sequence numbers are
-- gap-free and committed in order, which is what lets the dispatcher read the
-- stream as a cursor. `dispatch_queued` says a dispatcher job is pending or
-- running, so emitters enqueue one only when none is (see dispatcher.ts).
CREATE TABLE event_streams (
  tenant_id text PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  last_seq bigint NOT NULL DEFAULT 0,
  dispatch_queued boolean NOT NULL DEFAULT false,
  -- dispatch_queued as it was before the last emit set it: lets one statement
  -- take the number, set the flag and tell the emitter whether to enqueue
  queued_before boolean NOT NULL DEFAULT false
);
SELECT platform_enable_tenant_rls('event_streams');

-- The dispatcher's cursor, apart from event_streams so that dispatching a
-- batch (which locks this row) never blocks emitters (who lock the other).
-- Every event with seq <= dispatched_seq has been dispatched.
CREATE TABLE event_cursors (
  tenant_id text PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  dispatched_seq bigint NOT NULL DEFAULT 0,
  dispatched_at timestamptz
);
SELECT platform_enable_tenant_rls('event_cursors');

-- CloudEvents 1.0 envelopes; `tenantid` is the row's tenant_id.
CREATE TABLE events (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  seq bigint NOT NULL,
  id text NOT NULL CHECK (char_length(id) BETWEEN 1 AND 200),
  type text NOT NULL CHECK (char_length(type) BETWEEN 1 AND 200),
  source text NOT NULL CHECK (char_length(source) BETWEEN 1 AND 500),
  time timestamptz NOT NULL,
  data jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (tenant_id, seq),
  -- CloudEvents: source + id identify an event.
  UNIQUE (tenant_id, source, id)
);
CREATE INDEX events_type_idx ON events (tenant_id, type, seq);
CREATE INDEX events_time_idx ON events (tenant_id, time);
SELECT platform_enable_tenant_rls('events');

CREATE TABLE event_types_custom (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (char_length(type) BETWEEN 1 AND 200),
  description text NOT NULL DEFAULT '',
  sample_payload jsonb,
  schema jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, type)
);
SELECT platform_enable_tenant_rls('event_types_custom');

-- A trigger is exactly one kind: reactive (matches stream events), scheduled
-- (cron in an IANA zone) or deadman (fires when a watched event stays away).
-- The last columns are runtime state, kept beside the definition so that a
-- timer job can check, under the row lock, that it is still the current one.
CREATE TABLE triggers (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) <= 100 AND name ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  kind text NOT NULL CHECK (kind IN ('reactive', 'scheduled', 'deadman')),
  event_type text NOT NULL,
  event_filter jsonb,
  target_type text NOT NULL DEFAULT 'workflow' CHECK (target_type = 'workflow'),
  target_name text NOT NULL,
  input_mapping jsonb,
  active boolean NOT NULL DEFAULT true,
  dedup_key text,
  dedup_window_seconds integer NOT NULL DEFAULT 300 CHECK (dedup_window_seconds > 0),
  schedule_config jsonb,
  deadman_config jsonb,
  -- scheduled: the occurrence its timer job is armed for (null when inactive)
  next_fire_at timestamptz,
  -- deadman: when the current watch window ends (null when not watching)
  deadman_deadline timestamptz,
  -- scheduled: the last occurrence fired; deadman: the last deadline fired
  last_fired_at timestamptz,
  -- the stream position when the trigger was created or last activated: it
  -- reacts only to events after it, however far behind the dispatcher is
  listen_after_seq bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, name),
  CHECK (schedule_config IS NULL OR deadman_config IS NULL),
  CHECK ((kind = 'scheduled') = (schedule_config IS NOT NULL)),
  CHECK ((kind = 'deadman') = (deadman_config IS NOT NULL))
);
CREATE INDEX triggers_active_idx ON triggers (tenant_id, kind) WHERE active;
SELECT platform_enable_tenant_rls('triggers');

-- What each trigger did with each event or timer: started a workflow, was
-- deduplicated, failed to start, or (schedules) missed its time.
CREATE TABLE trigger_dispatches (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  trigger_name text NOT NULL,
  origin text NOT NULL CHECK (origin IN ('event', 'schedule', 'deadman', 'backfill')),
  status text NOT NULL CHECK (status IN ('started', 'deduplicated', 'failed', 'missed')),
  event_id text,
  event_seq bigint,
  dedup_key text,
  execution_id text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, trigger_name) REFERENCES triggers (tenant_id, name) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX trigger_dispatches_trigger_idx ON trigger_dispatches (tenant_id, trigger_name, id DESC);
CREATE INDEX trigger_dispatches_created_idx ON trigger_dispatches (tenant_id, created_at);
-- The self-loop guard: did this trigger start the execution whose end this is?
CREATE INDEX trigger_dispatches_execution_idx ON trigger_dispatches (tenant_id, execution_id) WHERE execution_id IS NOT NULL;
SELECT platform_enable_tenant_rls('trigger_dispatches');

-- Dedup windows: per trigger and resolved key, the event time that opened the
-- current window. Claiming a key is one INSERT ... ON CONFLICT, atomic between
-- the dispatcher and a concurrent backfill.
CREATE TABLE trigger_dedup (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  trigger_name text NOT NULL,
  dedup_key text NOT NULL,
  window_start timestamptz NOT NULL,
  event_id text,
  PRIMARY KEY (tenant_id, trigger_name, dedup_key),
  FOREIGN KEY (tenant_id, trigger_name) REFERENCES triggers (tenant_id, name) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX trigger_dedup_window_idx ON trigger_dedup (tenant_id, window_start);
SELECT platform_enable_tenant_rls('trigger_dedup');

-- Backfill requests from the CLI, run by a server worker (which has the
-- workflows plugin) in the tenant's dispatcher queue; the CLI polls the row.
CREATE TABLE trigger_backfills (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  trigger_name text NOT NULL,
  request jsonb NOT NULL,
  result jsonb,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
SELECT platform_enable_tenant_rls('trigger_backfills');

-- The ontology (spec document 3, sections 2.1, 3, 4.6, 5.4): entity types
-- with immutable versions, entities keyed by their type's keys with lineage
-- to the lake snapshot row they came from, backing datasets mapping a lake
-- dataset onto a type, and their fingerprinted sync runs.

CREATE TABLE ontology_entity_types (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  code text NOT NULL,
  current_version integer NOT NULL,
  -- Set by DELETE with allow_deprecate while backing datasets still use the type.
  deprecated_at timestamptz,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, code)
);
SELECT platform_enable_tenant_rls('ontology_entity_types');

-- A version is never changed once written: a change is a new version.
CREATE TABLE ontology_entity_type_versions (
  tenant_id text NOT NULL,
  code text NOT NULL,
  version integer NOT NULL,
  name text NOT NULL,
  description text,
  -- A JSON Schema of the entity's properties ({type: object, properties, required}).
  properties jsonb NOT NULL,
  keys text[] NOT NULL,
  -- [{name, target_type, cardinality: one|many, via}]
  relationships jsonb NOT NULL DEFAULT '[]',
  carrier_types text[] NOT NULL DEFAULT '{}',
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, code, version),
  FOREIGN KEY (tenant_id, code) REFERENCES ontology_entity_types (tenant_id, code) ON DELETE CASCADE
);
SELECT platform_enable_tenant_rls('ontology_entity_type_versions');

CREATE TABLE ontology_backing_datasets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL,
  dataset_id text NOT NULL,
  entity_type text NOT NULL,
  -- null: follow the type's current version (a new version changes the effective spec).
  entity_type_version integer,
  -- [{column, property}]
  mappings jsonb NOT NULL,
  key_columns text[] NOT NULL,
  identity_policy_id text,
  -- What the last successful sync applied: a skipped run compares against these.
  applied_sync_spec_fingerprint text,
  applied_snapshot_id bigint,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, name),
  FOREIGN KEY (tenant_id, entity_type) REFERENCES ontology_entity_types (tenant_id, code)
);
SELECT platform_enable_tenant_rls('ontology_backing_datasets');

CREATE TABLE ontology_sync_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  backing_dataset_id uuid NOT NULL REFERENCES ontology_backing_datasets (id) ON DELETE CASCADE,
  workflow_id text,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'skipped', 'failed')),
  force boolean NOT NULL DEFAULT false,
  -- The effective spec the trigger computed (canonical JSON, no rows, no credentials) and its sha-256.
  effective_spec jsonb NOT NULL,
  attempted_sync_spec_fingerprint text NOT NULL,
  -- The backing dataset's applied fingerprint after this run: the attempted one on success, the previous one otherwise.
  applied_sync_spec_fingerprint text,
  effective_spec_changed boolean NOT NULL DEFAULT false,
  -- first_sync, snapshot_changed, effective_spec_changed or force (null when skipped or not yet decided).
  replay_reason text,
  snapshot_id bigint,
  rows_synced bigint NOT NULL DEFAULT 0,
  bulk_jobs jsonb NOT NULL DEFAULT '[]',
  attempts integer NOT NULL DEFAULT 0,
  error text,
  requested_by jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX ontology_sync_runs_dataset ON ontology_sync_runs (tenant_id, backing_dataset_id, created_at DESC);
SELECT platform_enable_tenant_rls('ontology_sync_runs');

CREATE TABLE ontology_sync_logs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  run_id uuid NOT NULL REFERENCES ontology_sync_runs (id) ON DELETE CASCADE,
  level text NOT NULL DEFAULT 'info',
  message text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ontology_sync_logs_run ON ontology_sync_logs (tenant_id, run_id, id);
SELECT platform_enable_tenant_rls('ontology_sync_logs');

-- One row per entity: its key (the JSON array text of its key values), its
-- properties, and lineage to the lake row it came from.
CREATE TABLE ontology_entities (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  entity_type text NOT NULL,
  key text NOT NULL,
  key_values jsonb NOT NULL,
  properties jsonb NOT NULL,
  backing_dataset_id uuid NOT NULL REFERENCES ontology_backing_datasets (id) ON DELETE CASCADE,
  dataset_id text NOT NULL,
  snapshot_id bigint NOT NULL,
  source_row_key text NOT NULL,
  synced_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, entity_type, key)
);
CREATE INDEX ontology_entities_backing ON ontology_entities (tenant_id, backing_dataset_id);
-- No GIN index on properties: it would multiply the cost of every bulk sync;
-- property filters scan one type's rows (a tenant adds an index when it needs one).
SELECT platform_enable_tenant_rls('ontology_entities');

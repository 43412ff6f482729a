-- Lakehouse: PostgreSQL is the lake. A dataset <namespace>.<layer>.<table> is
-- a table in the schema of its namespace (raw: landed source streams;
-- derived: transform outputs; registry: shared, read-only for tenants;
-- sandbox: sandbox runs). Lake tables are created at run time (store/ddl.ts),
-- each with _tenant_id under forced row-level security and system-versioned
-- rows (_snapshot_from, _snapshot_to). This file holds the schemas and the
-- registry of datasets and snapshots.
CREATE SCHEMA IF NOT EXISTS raw;
CREATE SCHEMA IF NOT EXISTS derived;
CREATE SCHEMA IF NOT EXISTS registry;
CREATE SCHEMA IF NOT EXISTS sandbox;
-- The tenant role reads and writes lake tables (row-level security picks the
-- rows) but creates none: tables and columns are the platform's DDL.
GRANT USAGE ON SCHEMA raw, derived, registry, sandbox TO platform_tenant;

-- Snapshot ids are 64-bit and sequence-derived (so a dataset's snapshots are
-- ordered and "as of" is a range predicate). The sequence starts past 2^53:
-- every id is beyond what a double holds exactly, so a client that compares
-- the deprecated numeric field instead of its _exact twin finds out at once.
CREATE SEQUENCE lake_snapshot_ids AS bigint START WITH 9007199254740993;

CREATE TABLE lake_datasets (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  -- The dotted identifier, e.g. raw.acme.orders.
  dataset_id text NOT NULL UNIQUE CHECK (char_length(dataset_id) <= 200),
  namespace text NOT NULL CHECK (namespace IN ('raw', 'derived', 'registry', 'sandbox')),
  layer text NOT NULL,
  table_name text NOT NULL,
  physical_table text NOT NULL,
  -- Readable by every tenant (registry datasets, shared raw layers); written only by its owner.
  shared boolean NOT NULL DEFAULT false,
  producer_kind text NOT NULL,
  producer_id text NOT NULL,
  producer_name text,
  -- [{name, column, type}]: each property of the rows, its column and lake type.
  columns jsonb NOT NULL DEFAULT '[]',
  primary_key text[] NOT NULL DEFAULT '{}',
  latest_snapshot_id bigint,
  row_count bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (namespace, physical_table)
);
CREATE INDEX lake_datasets_tenant ON lake_datasets (tenant_id, dataset_id);
SELECT platform_enable_tenant_rls('lake_datasets');
CREATE POLICY shared_read ON lake_datasets FOR SELECT USING (shared);

-- One row per snapshot: what a write did. Vacuumed with the row versions only
-- it still needed (PIPELINES_SNAPSHOT_RETENTION per dataset).
CREATE TABLE lake_snapshots (
  snapshot_id bigint PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  dataset_ref bigint NOT NULL REFERENCES lake_datasets (id) ON DELETE CASCADE,
  parent_snapshot_id bigint,
  shared boolean NOT NULL DEFAULT false,
  -- append | overwrite | append_dedup (the write mode that made it).
  operation text NOT NULL,
  rows_staged bigint NOT NULL DEFAULT 0,
  rows_added bigint NOT NULL DEFAULT 0,
  rows_removed bigint NOT NULL DEFAULT 0,
  row_count bigint NOT NULL DEFAULT 0,
  summary jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lake_snapshots_dataset ON lake_snapshots (dataset_ref, snapshot_id DESC);
SELECT platform_enable_tenant_rls('lake_snapshots');
CREATE POLICY shared_read ON lake_snapshots FOR SELECT USING (shared);

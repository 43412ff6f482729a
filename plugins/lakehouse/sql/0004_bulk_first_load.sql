-- A first load (a lake table that has never held a row) COPYs straight into
-- the table instead of into a staging table and then INSERT ... SELECT: one
-- write of the rows instead of two, and COPY's batched inserts. PostgreSQL
-- refuses COPY FROM into a table whose row-level security applies to the
-- writer, so for that one transaction the table's RLS is off and a CHECK
-- constraint holds its place: every row must be the acting tenant's, at the
-- new snapshot, current. The ACCESS EXCLUSIVE lock taken first is held until
-- the write commits or rolls back, so no other transaction ever sees the table
-- without its policy (DDL is transactional: they see it as it was, or as it
-- is after lake_bulk_load_end put everything back). Readers of a dataset with
-- no snapshot never touch its table (services.ts asOf), so the lock holds
-- back nothing but a second writer, which waits on the registry row anyway.
-- Both run as the owner (SECURITY DEFINER) for a dataset of the acting tenant
-- only (lake_key_index_target checks it).

-- Opens the window; false (and nothing changed) when the table has a row,
-- current or past: a load into it goes through the stage.
CREATE FUNCTION lake_bulk_load_begin(p_dataset bigint, p_snapshot bigint) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
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

-- Closes it: the table exactly as lake tables are (store/ddl.ts), its key index
-- built, and statistics taken. Without them the planner guesses until
-- autovacuum's next pass, and the first readers of a fresh load (a pipeline
-- its snapshot event starts, the next incremental sync) got plans that scan
-- every row; a small sample (3,000 rows: statistics target 10, ~25 ms for a
-- million rows instead of ~200) gives the sizes, null fractions and distinct
-- counts those plans need. Autovacuum analyzes again, at full target, once a
-- tenth of the rows have changed.
CREATE FUNCTION lake_bulk_load_end(p_dataset bigint) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET default_statistics_target = 10 AS $$
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

REVOKE ALL ON FUNCTION lake_bulk_load_begin(bigint, bigint), lake_bulk_load_end(bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lake_bulk_load_begin(bigint, bigint), lake_bulk_load_end(bigint) TO platform_tenant;

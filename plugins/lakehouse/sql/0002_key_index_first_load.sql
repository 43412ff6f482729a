-- A first load (a dataset with no current rows) builds the key index once,
-- after the rows, instead of maintaining it row by row (about half the cost of
-- the INSERT ... SELECT of a 1M-row full refresh). Index DDL needs the owner,
-- and writes run as the tenant role: these two functions run as the owner
-- (SECURITY DEFINER) for a dataset of the acting tenant only (app.tenant_id),
-- on the index ddl.ts names and defines (lake_key_<sha256 of
-- namespace.physical_table, 24 hex>, on the key's columns, current versions).
-- Each takes the table's ACCESS EXCLUSIVE lock until the write commits:
-- readers of that dataset wait for its first load.
CREATE FUNCTION lake_key_index_target(p_dataset bigint, OUT schema_name text, OUT relation text, OUT index_name text, OUT key_columns text)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
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
REVOKE ALL ON FUNCTION lake_key_index_target(bigint) FROM PUBLIC;

-- Drops the dataset's key index; whether there was one to drop.
CREATE FUNCTION lake_drop_key_index(p_dataset bigint) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
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

-- Builds the dataset's key index (if it has a key and the index is missing).
CREATE FUNCTION lake_create_key_index(p_dataset bigint) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  t record;
BEGIN
  SELECT * INTO t FROM lake_key_index_target(p_dataset);
  IF t.key_columns IS NULL THEN RETURN; END IF;
  EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %s (%s) WHERE _snapshot_to IS NULL', t.index_name, t.relation, t.key_columns);
END $$;

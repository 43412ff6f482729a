-- Lake tables hold millions of rows, and their isolation policy compared each
-- row with current_setting('app.tenant_id'), a function call per row (about a
-- quarter of a 1M-row INSERT ... SELECT). Written as a scalar subquery the
-- setting becomes an InitPlan, read once per statement; the rule is the same.
-- New tables get the new form from store/ddl.ts; this rewrites existing ones.
DO $$
DECLARE
  p record;
  setting constant text := 'current_setting(''app.tenant_id''::text, true)';
  once constant text := '( SELECT current_setting(''app.tenant_id''::text, true) AS current_setting)';
BEGIN
  FOR p IN
    SELECT schemaname, tablename, qual, with_check FROM pg_policies
    WHERE policyname = 'tenant_isolation' AND schemaname IN ('raw', 'derived', 'registry', 'sandbox')
      AND position('SELECT current_setting' IN qual) = 0
  LOOP
    EXECUTE format('ALTER POLICY tenant_isolation ON %I.%I USING (%s) WITH CHECK (%s)',
      p.schemaname, p.tablename, replace(p.qual, setting, once), replace(p.with_check, setting, once));
  END LOOP;
END $$;

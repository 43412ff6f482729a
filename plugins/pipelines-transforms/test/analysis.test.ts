// SQL analysis of tenant SQL (api.analyzeSql, reviewSql): the real parser's
// errors with line and column, the statement rules, the function allowlist,
// the read rule on every relation, parameters, inferred columns and lineage.
import t from 'tap';
import { transformsPlatform } from './helpers.ts';

t.test('analyzeSql: lineage and described output columns; CTE names are not relations', async (t) => {
  const { api } = await transformsPlatform(t);
  const analysis = await api.analyzeSql('acme', `WITH big AS (SELECT id, amount FROM raw.acme.orders WHERE amount > $1)
    SELECT o.customer, count(*) AS n, sum(o.amount) AS total FROM raw.acme.orders o JOIN big ON big.id = o.id GROUP BY o.customer`, { min_amount: { type: 'number', default: 5 } });
  t.same(analysis.errors, []);
  t.equal(analysis.ok, true);
  t.same(analysis.inputs, ['raw.acme.orders']);
  t.same(analysis.columns, [{ name: 'customer', type: 'text' }, { name: 'n', type: 'bigint' }, { name: 'total', type: 'numeric' }]);
});

t.test('analyzeSql: syntax errors carry 1-based line and column from the parser cursor', async (t) => {
  const { api } = await transformsPlatform(t);
  const analysis = await api.analyzeSql('acme', 'SELECT id,\n  FROM raw.acme.orders');
  t.equal(analysis.ok, false);
  t.match(analysis.errors, [{ code: 'SQL_SYNTAX', line: 2, column: 3 }]);
  t.match(analysis.errors[0]!.message, /syntax error at or near "FROM"/);
});

t.test('analyzeSql: the statement rules and the function allowlist', async (t) => {
  const { api } = await transformsPlatform(t);
  const cases: [string, string][] = [
    ["SELECT pg_read_file('/etc/passwd')", 'SQL_FUNCTION_NOT_ALLOWED'],
    ["SELECT set_config('app.tenant_id', 'beta', true)", 'SQL_FUNCTION_NOT_ALLOWED'],
    ["SELECT current_setting('app.tenant_id')", 'SQL_FUNCTION_NOT_ALLOWED'],
    ["SELECT * FROM dblink('host=x', 'select 1') AS t(a int)", 'SQL_FUNCTION_NOT_ALLOWED'],
    ['SELECT public.anything(1)', 'SQL_FUNCTION_NOT_ALLOWED'],
    ['WITH gone AS (DELETE FROM raw.acme.orders RETURNING id) SELECT id FROM gone', 'SQL_DATA_MODIFYING'],
    ['SELECT id INTO kept FROM raw.acme.orders', 'SQL_SELECT_INTO'],
    ['SELECT id FROM raw.acme.orders FOR UPDATE', 'SQL_LOCKING_CLAUSE'],
    ['SELECT 1; SELECT 2', 'SQL_SINGLE_STATEMENT'],
    ['DELETE FROM raw.acme.orders', 'SQL_NOT_SELECT'],
    ['SELECT * FROM pg_authid', 'SQL_RELATION_NOT_DATASET'],
    ['SELECT * FROM pg_catalog.pg_class', 'SQL_RELATION_NOT_DATASET'],
    ["SELECT 'pg_authid'::regclass", 'SQL_CAST_NOT_ALLOWED'],
    ['SELECT id FROM raw.beta.orders', 'DATASET_FORBIDDEN'],
    ['SELECT id FROM raw.acme.missing', 'DATASET_NOT_FOUND'],
    ['SELECT $2', 'SQL_PARAMETER_UNDECLARED'],
    // A WITH name only covers its own statement: the same name elsewhere would be a real (catalog) table.
    ['SELECT (WITH pg_settings AS (SELECT 1 AS setting) SELECT 1), (SELECT setting FROM pg_settings LIMIT 1)', 'SQL_RELATION_NOT_DATASET'],
    ['WITH a AS (SELECT * FROM pg_stat_activity), pg_stat_activity AS (SELECT 1) SELECT * FROM a', 'SQL_RELATION_NOT_DATASET'],
  ];
  for (const [sql, code] of cases) {
    const analysis = await api.analyzeSql('acme', sql);
    t.equal(analysis.ok, false, sql);
    t.ok(analysis.errors.some((e) => e.code === code), `${sql} → ${code} (${JSON.stringify(analysis.errors)})`);
  }
  const located = await api.analyzeSql('acme', 'SELECT id,\n  pg_sleep(1) FROM raw.acme.orders');
  t.match(located.errors, [{ code: 'SQL_FUNCTION_NOT_ALLOWED', line: 2, column: 3 }]);
});

t.test('analyzeSql: WITH names in scope (later siblings, RECURSIVE, nested, set operations) are not relations', async (t) => {
  const { api } = await transformsPlatform(t);
  for (const sql of [
    'WITH a AS (SELECT id FROM raw.acme.orders), b AS (SELECT id FROM a) SELECT id FROM b',
    'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT i FROM n',
    'WITH a AS (SELECT id FROM raw.acme.orders) SELECT (SELECT count(*) FROM a) AS c',
    'WITH a AS (SELECT id FROM raw.acme.orders) SELECT id FROM a UNION SELECT id FROM a',
  ]) {
    const analysis = await api.analyzeSql('acme', sql);
    t.same(analysis.errors, [], sql);
  }
});

t.test('reviewSql: errors with position and lint warnings', async (t) => {
  const { api } = await transformsPlatform(t);
  const review = await api.reviewSql('acme', 'SELECT *, random() FROM raw.acme.orders a, raw.acme.orders b');
  t.equal(review.analysis.ok, true);
  t.same(review.findings.map((f) => f.rule).sort(), ['cartesian-join', 'non-deterministic', 'select-star']);
  const broken = await api.reviewSql('acme', 'SELECT id FROM raw.beta.orders');
  t.match(broken.findings, [{ rule: 'unreadable-dataset', severity: 'error', line: 1, column: 16 }]);
});

// The pure passes of SQL analysis (analysis/): the real parser's errors with
// their positions, the statement rules and the function allowlist, the
// relations read (WITH names in scope), parameter references, output column
// names, lint findings and the in-place rewrite. No database: describing the
// output and the lake's read rule are the service's (analysis.test.ts).
import t from 'tap';
import { ALLOWED_FUNCTIONS, NON_DETERMINISTIC } from '../analysis/allowlist.ts';
import { outputNames } from '../analysis/columns.ts';
import { lintFindings } from '../analysis/lint.ts';
import { parseSql, tokensOf, type Parsed } from '../analysis/parse.ts';
import { positionAt } from '../analysis/position.ts';
import { parameterRefs, relationsOf } from '../analysis/relations.ts';
import { rewrite } from '../analysis/rewrite.ts';
import { ruleErrors } from '../analysis/rules.ts';
import { names, walk } from '../analysis/tree.ts';

async function tree(sql: string): Promise<Parsed> {
  const outcome = await parseSql(sql);
  if (!outcome.ok) throw new Error(`${sql}: ${outcome.error.message}`);
  return outcome.tree;
}

const codes = (errors: { code: string }[]) => errors.map((e) => e.code);

t.test('positionAt: 1-based line and column in characters from a 0-based UTF-8 byte offset', async (t) => {
  t.same(positionAt('SELECT 1', 0), { line: 1, column: 1 });
  t.same(positionAt('SELECT id,\n  FROM x', 13), { line: 2, column: 3 });
  t.same(positionAt("SELECT 'é€', x", 16), { line: 1, column: 14 }, 'é is 2 bytes and € 3, one column each');
  t.equal(positionAt('SELECT 1', undefined), undefined);
  t.equal(positionAt('SELECT 1', -1), undefined);
});

t.test('parseSql: a syntax error carries the parser\'s message and position; over-long and NUL SQL are refused unparsed', async (t) => {
  const broken = await parseSql('SELECT id,\n  FROM raw.acme.orders');
  t.equal(broken.ok, false);
  if (!broken.ok) {
    t.match(broken.error, { code: 'SQL_SYNTAX', line: 2, column: 3 });
    t.match(broken.error.message, /syntax error at or near "FROM"/);
  }
  t.same(await parseSql('x'.repeat(200_001)), { ok: false, error: { code: 'SQL_TOO_LONG', message: 'SQL is limited to 200000 characters' } });
  t.same(await parseSql('SELECT 1\u0000'), { ok: false, error: { code: 'SQL_SYNTAX', message: 'SQL may not contain NUL characters' } });
  const ok = await parseSql('SELECT 1');
  t.equal(ok.ok, true);
  if (ok.ok) t.equal(ok.tree.stmts.length, 1);
});

t.test('ruleErrors: one SELECT only; no data-modifying WITH, SELECT INTO or locking clause', async (t) => {
  const cases: [string, string][] = [
    ['SELECT 1; SELECT 2', 'SQL_SINGLE_STATEMENT'],
    ['DELETE FROM raw.acme.orders', 'SQL_NOT_SELECT'],
    ['WITH gone AS (DELETE FROM raw.acme.orders RETURNING id) SELECT id FROM gone', 'SQL_DATA_MODIFYING'],
    ['SELECT id INTO kept FROM raw.acme.orders', 'SQL_SELECT_INTO'],
    ['SELECT id FROM raw.acme.orders FOR UPDATE', 'SQL_LOCKING_CLAUSE'],
  ];
  for (const [sql, code] of cases) t.same(codes(ruleErrors(sql, await tree(sql))), [code], sql);
  t.same(ruleErrors('SELECT 1; SELECT 2', await tree('SELECT 1; SELECT 2')),
    [{ code: 'SQL_SINGLE_STATEMENT', message: 'Exactly one statement is allowed (found 2)' }]);
  t.same(ruleErrors('DELETE FROM x.y.z', await tree('DELETE FROM x.y.z')),
    [{ code: 'SQL_NOT_SELECT', message: 'Only SELECT (or WITH … SELECT) is allowed, not Delete' }]);
  t.match(ruleErrors('WITH g AS (UPDATE a.b.c SET x = 1 RETURNING x) SELECT x FROM g', await tree('WITH g AS (UPDATE a.b.c SET x = 1 RETURNING x) SELECT x FROM g')),
    [{ message: /data-modifying statement \(UPDATE\)/ }]);
  t.same(ruleErrors('', { stmts: [] }), [{ code: 'SQL_SINGLE_STATEMENT', message: 'Exactly one statement is allowed (found 0)' }]);
});

t.test('ruleErrors: functions only from the allowlist, unqualified or in pg_catalog; no reg* casts', async (t) => {
  for (const sql of [
    "SELECT pg_read_file('/etc/passwd')",
    "SELECT set_config('app.tenant_id', 'beta', true)",
    "SELECT current_setting('app.tenant_id')",
    "SELECT * FROM dblink('host=x', 'select 1') AS t(a int)",
    'SELECT public.anything(1)',
    'SELECT public.lower(x) FROM a.b.c',
    "SELECT nextval('s')",
  ]) t.same(codes(ruleErrors(sql, await tree(sql))), ['SQL_FUNCTION_NOT_ALLOWED'], sql);
  for (const sql of ['SELECT lower(name), count(*) FROM a.b.c GROUP BY 1', 'SELECT pg_catalog.lower(name) FROM a.b.c', 'SELECT COALESCE(x, 0), UPPER(y) FROM a.b.c']) {
    t.same(ruleErrors(sql, await tree(sql)), [], sql);
  }
  const located = 'SELECT id,\n  pg_sleep(1) FROM raw.acme.orders';
  t.same(ruleErrors(located, await tree(located)), [{ code: 'SQL_FUNCTION_NOT_ALLOWED', message: 'Function pg_sleep is not on the allowlist', line: 2, column: 3 }]);
  const cast = "SELECT 'pg_authid'::regclass";
  t.match(ruleErrors(cast, await tree(cast)), [{ code: 'SQL_CAST_NOT_ALLOWED', message: 'Type regclass is not allowed (it reads the catalog)' }]);
  const plain = "SELECT '1'::int, CAST(x AS text) FROM a.b.c";
  t.same(ruleErrors(plain, await tree(plain)), []);
});

t.test('the allowlist is explicit: catalog, session and sequence functions are not on it; the non-deterministic ones are', async (t) => {
  for (const name of ['count', 'lower', 'jsonb_build_object', 'date_trunc', 'coalesce', 'random']) t.ok(ALLOWED_FUNCTIONS.has(name), name);
  for (const name of ['pg_sleep', 'pg_read_file', 'set_config', 'current_setting', 'nextval', 'dblink', 'lo_import', 'query_to_xml']) t.notOk(ALLOWED_FUNCTIONS.has(name), name);
  for (const name of NON_DETERMINISTIC) t.ok(ALLOWED_FUNCTIONS.has(name), `${name} is allowed, with a lint warning`);
});

t.test('relationsOf: three-part dataset ids with alias and table; any other relation is refused with its position', async (t) => {
  const sql = 'SELECT o.id FROM raw.acme.orders o JOIN derived.acme.clean ON true';
  const { refs, errors } = relationsOf(sql, await tree(sql));
  t.same(errors, []);
  t.same(refs, [
    { datasetId: 'raw.acme.orders', location: 17, alias: 'o', table: 'orders' },
    { datasetId: 'derived.acme.clean', location: 40, alias: null, table: 'clean' },
  ]);
  const bare = 'SELECT *\nFROM pg_authid, pg_catalog.pg_class';
  t.same(relationsOf(bare, await tree(bare)).errors, [
    { code: 'SQL_RELATION_NOT_DATASET', message: 'Relation pg_authid is not a dataset (nor a WITH query in scope): name datasets by their id <namespace>.<layer>.<table>', line: 2, column: 6 },
    { code: 'SQL_RELATION_NOT_DATASET', message: 'Relation pg_catalog.pg_class is not a dataset (nor a WITH query in scope): name datasets by their id <namespace>.<layer>.<table>', line: 2, column: 17 },
  ]);
});

t.test('relationsOf: WITH names in scope (later siblings, RECURSIVE, nested, set operations) are not relations', async (t) => {
  for (const sql of [
    'WITH a AS (SELECT id FROM raw.acme.orders), b AS (SELECT id FROM a) SELECT id FROM b',
    'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT i FROM n',
    'WITH a AS (SELECT id FROM raw.acme.orders) SELECT (SELECT count(*) FROM a) AS c',
    'WITH a AS (SELECT id FROM raw.acme.orders) SELECT id FROM a UNION SELECT id FROM a',
  ]) {
    const { refs, errors } = relationsOf(sql, await tree(sql));
    t.same(errors, [], sql);
    t.same(refs.map((ref) => ref.datasetId), sql.includes('raw.acme.orders') ? ['raw.acme.orders'] : [], sql);
  }
});

t.test('relationsOf: a WITH name covers its own statement only, and a CTE sees only the ones before it', async (t) => {
  for (const sql of [
    'SELECT (WITH pg_settings AS (SELECT 1 AS setting) SELECT 1), (SELECT setting FROM pg_settings LIMIT 1)',
    'WITH a AS (SELECT * FROM pg_stat_activity), pg_stat_activity AS (SELECT 1) SELECT * FROM a',
    'WITH n AS (SELECT 1 FROM n) SELECT 1',
  ]) t.same(codes(relationsOf(sql, await tree(sql)).errors), ['SQL_RELATION_NOT_DATASET'], sql);
});

t.test('parameterRefs: every $n with its byte offset, in order', async (t) => {
  const sql = 'SELECT $2, $1 FROM a.b.c WHERE x > $2';
  t.same(parameterRefs(await tree(sql)), [{ number: 2, location: 7 }, { number: 1, location: 11 }, { number: 2, location: 35 }]);
  t.same(parameterRefs(await tree('SELECT 1')), []);
});

t.test('outputNames: the names PostgreSQL would give the columns, `*` kept', async (t) => {
  const sql = 'SELECT o.customer, count(*) AS n, sum(o.amount), o.id::text, coalesce(a, b), 1 + 1, o.*, * FROM raw.acme.orders o';
  t.same(outputNames(await tree(sql)), ['customer', 'n', 'sum', 'id', 'coalesce', '?column?', '*', '*']);
  t.same(outputNames(await tree('SELECT a FROM x.y.z UNION SELECT b FROM x.y.w')), ['a'], 'a set operation is named by its first branch');
  t.same(outputNames(await tree('SELECT pg_catalog.lower(x)')), ['lower']);
});

t.test('lintFindings: SELECT *, cartesian joins, non-deterministic functions', async (t) => {
  const sql = 'SELECT *, random() FROM raw.acme.orders a, raw.acme.orders b';
  const findings = lintFindings(sql, await tree(sql));
  t.same(findings.map((f) => f.rule).sort(), ['cartesian-join', 'non-deterministic', 'select-star']);
  t.match(findings.find((f) => f.rule === 'select-star'), { severity: 'warning', line: 1, column: 8 });
  t.match(findings.find((f) => f.rule === 'cartesian-join'), { message: '2 FROM items without a WHERE clause: a cartesian product' });
  t.match(findings.find((f) => f.rule === 'non-deterministic'), { message: 'random() gives a different result on each run: materializations are not reproducible', column: 11 });

  const cross = 'SELECT a.id FROM x.y.a CROSS JOIN x.y.b';
  t.match(lintFindings(cross, await tree(cross)), [{ rule: 'cartesian-join', message: 'A join without ON or USING is a cartesian product', line: 1, column: 35 }]);
  const now = 'SELECT current_date, now() FROM x.y.a';
  t.same(lintFindings(now, await tree(now)).map((f) => f.message).sort(), [
    'current date/time or user values differ between runs',
    'now() gives a different result on each run: materializations are not reproducible',
  ]);
  for (const clean of [
    'SELECT a.id FROM x.y.a JOIN x.y.b ON a.id = b.id',
    'SELECT a.id FROM x.y.a JOIN x.y.b USING (id)',
    'SELECT a.id FROM x.y.a NATURAL JOIN x.y.b',
    'SELECT a.id FROM x.y.a, x.y.b WHERE a.id = b.id',
  ]) t.same(lintFindings(clean, await tree(clean)), [], clean);
});

t.test('rewrite: dataset references become their subqueries (aliased by the table without an alias); $n gets its cast', async (t) => {
  const sql = 'SELECT o.id, é FROM raw.acme.orders o JOIN derived.acme.clean ON o.id = clean.id WHERE o.amount > $1';
  const parsed = await tree(sql);
  const { refs } = relationsOf(sql, parsed);
  const rewritten = rewrite(sql, await tokensOf(sql),
    refs.map((ref) => ({ ref, select: `SELECT * FROM snapshot_${ref.table}` })),
    parameterRefs(parsed).map((param) => ({ location: param.location, cast: 'numeric' })));
  t.equal(rewritten, 'SELECT o.id, é FROM (SELECT * FROM snapshot_orders) o JOIN (SELECT * FROM snapshot_clean) AS "clean" ON o.id = clean.id WHERE o.amount > ($1::numeric)');
  t.equal(rewrite(sql, await tokensOf(sql), [], []), sql, 'no edits, the same text');
  const quoted = 'SELECT 1 FROM raw.acme."we""ird"';
  const ref = relationsOf(quoted, await tree(quoted)).refs[0]!;
  t.equal(rewrite(quoted, await tokensOf(quoted), [{ ref, select: 'SELECT 1' }], []), 'SELECT 1 FROM (SELECT 1) AS "we""ird"');
  t.throws(() => rewrite('SELECT 1', [], [], [{ location: 7, cast: 'text' }]), /no parameter at offset 7/);
});

t.test('tree helpers: walk visits every typed node; names reads qualified names', async (t) => {
  const seen: string[] = [];
  walk(await tree('SELECT lower(x) FROM a.b.c'), (type) => seen.push(type));
  for (const type of ['SelectStmt', 'FuncCall', 'ColumnRef', 'RangeVar', 'ResTarget']) t.ok(seen.includes(type), type);
  t.same(names([{ String: { sval: 'pg_catalog' } }, { String: { sval: 'lower' } }]), ['pg_catalog', 'lower']);
  t.same(names(undefined), []);
  t.same(names([{ Other: {} }]), ['']);
});

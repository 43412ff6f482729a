// Tenant-written SQL under core.tenantSql, through the real server on the
// external PostgreSQL, with a 1 s interactive budget and two statements per
// tenant: a constant expression PostgreSQL folds while planning (so even the
// LIMIT 0 analysis runs it) answers review-sql with 422 SQL_TIMEOUT, as do a
// slow transform-pattern preview and a slow identity dry run; a third
// statement of a tenant already running two gets 429 SQL_CONCURRENCY_LIMIT
// with Retry-After while another tenant's request succeeds and a job waits
// for a slot instead of failing; a materialization past its job budget fails
// its run with TRANSFORM_STATEMENT_TIMEOUT and writes nothing.
import t from 'tap';
import pg from 'pg';
import type { LakehouseApi } from '../../plugins/lakehouse/api.ts';
import { startTestPlatform, tenantWithAdmin, type TestPlatform } from '../harness.ts';

// Each column folds a 4 MB regexp_replace at plan time: seconds of work each, far past the budget.
const FOLDED = `length(regexp_replace(repeat('ab', 2000000), 'b', 'cc', 'g'))`;
const SLOW_REVIEW = `SELECT ${FOLDED} AS n1, ${FOLDED} AS n2, ${FOLDED} AS n3`;
/** The advisory locks of tenant statement slots (core/tenant-sql/slots.ts: class 'tSQL'). */
const SLOT_CLASS = 0x7453514c;

async function memberToken(tp: TestPlatform, sub: string, tenant: string): Promise<string> {
  const created = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub, display_name: sub, organizations: [tenant], roles: [] } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return (await tp.request({ method: 'POST', url: `/api/admin/users/${sub}/tokens`, token: tp.adminToken })).body.access_token as string;
}

t.test('tenant SQL: statement budget and per-tenant concurrency cap', async (t) => {
  const tp = await startTestPlatform(t, {
    listen: true,
    env: {
      TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS: '1', TENANT_SQL_MAX_CONCURRENT_PER_TENANT: '2',
      PIPELINES_TRANSFORM_STATEMENT_TIMEOUT_MS: '3000', IDENTITY_DRY_RUN_MAX_RECORDS: '8000',
    },
  });
  const acme = await tenantWithAdmin(tp, 'acme');
  const beta = await tenantWithAdmin(tp, 'beta');
  const member = await memberToken(tp, 'acme-member', 'acme');
  const betaMember = await memberToken(tp, 'beta-member', 'beta');
  const as = (token: string, tenant: string) => (method: string, url: string, payload?: unknown) => tp.request({ method, url, token, tenant, payload });
  const asMember = as(member, 'acme');
  const asAdmin = as(acme.token, 'acme');
  const asBeta = as(betaMember, 'beta');
  const lake: LakehouseApi = tp.platform.server.plugins.lakehouse.api;
  const db = new pg.Client({ connectionString: tp.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  const slotsHeld = async () => (await db.query<{ n: number }>(
    // pg_locks lists the whole cluster's locks: only this test's database counts (other test files run beside it).
    `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objsubid = 2 AND granted
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`, [SLOT_CLASS])).rows[0]!.n;

  t.test('review-sql of a member with no role: a constant folded at plan time is stopped at the budget', async (t) => {
    const res = await asMember('POST', '/api/v1/ai/review-sql', { sql: SLOW_REVIEW });
    t.same([res.status, res.body.code, res.body.budget_ms], [422, 'SQL_TIMEOUT', 1000], JSON.stringify(res.body));
    t.notMatch(res.body.message, /regexp|canceling/, 'the message names neither the SQL nor PostgreSQL\'s text');
    const quick = await asMember('POST', '/api/v1/ai/review-sql', { sql: 'SELECT 1 AS one' });
    t.equal(quick.status, 200, 'the tenant\'s slots were freed with the timed-out transaction');
    t.equal(await slotsHeld(), 0);
  });

  t.test('a transform-pattern preview past the budget: 422 SQL_TIMEOUT', async (t) => {
    const datasetId = 'raw.acme.people';
    await lake.ensureDataset('acme', { datasetId, columns: [{ name: 'id', type: 'bigint' }, { name: 'name', type: 'text' }], primaryKey: ['id'], producer: { kind: 'source_stream', id: 'test' } });
    await lake.write('acme', datasetId, { mode: 'overwrite', source: { kind: 'records', batches: [Array.from({ length: 1000 }, (_, i) => ({ id: i, name: `person ${i}` }))] } });
    // Each of the 1000 sampled rows is compared with 90 000 listed values: seconds of work.
    const values = Array.from({ length: 90_000 }, (_, i) => `v${i}`);
    const res = await asAdmin('POST', '/api/v1/transform-patterns/filter/preview', {
      parameters: { input: datasetId, conditions: [{ column: 'name', operator: 'in', value: values }] },
    });
    t.same([res.status, res.body.code], [422, 'SQL_TIMEOUT'], JSON.stringify(res.body).slice(0, 500));
    const fine = await asAdmin('POST', '/api/v1/transform-patterns/filter/preview', {
      parameters: { input: datasetId, conditions: [{ column: 'name', operator: 'in', value: ['person 7'] }] },
    });
    t.same([fine.status, fine.body.rows?.length], [200, 1], 'a quick preview still answers');
  });

  t.test('an identity dry run past the budget: 422 SQL_TIMEOUT, though IDENTITY_MATCH_TIMEOUT_SECONDS allows 600 s', async (t) => {
    const policy = { name: 'one_block', max_block_size: 100_000, blocking_keys: [{ field: 'city' }],
      rules: [{ name: 'name', kind: 'fuzzy', fields: [{ field: 'name', threshold: 0.99 }] }] };
    const id = (await asAdmin('POST', '/api/v1/identity-policies', policy)).body.id;
    // One block holding every record: 32 million trigram comparisons.
    const records = Array.from({ length: 8000 }, (_, i) => ({ ref: `r${i}`, values: { city: 'Lisboa', name: `person number ${i * 7919}` } }));
    const res = await asAdmin('POST', `/api/v1/identity-policies/${id}/dry-run`, { records });
    t.same([res.status, res.body.code], [422, 'SQL_TIMEOUT'], JSON.stringify(res.body));
  });

  t.test('a third statement of one tenant: 429 with Retry-After; another tenant\'s request and a job of the tenant go through', async (t) => {
    const cheap = await asAdmin('POST', '/api/v1/transforms', { name: 'cheap', sql: 'SELECT 1::bigint AS n' });
    t.equal(cheap.status, 201, JSON.stringify(cheap.body));
    const slow = [asMember('POST', '/api/v1/ai/review-sql', { sql: SLOW_REVIEW }), asMember('POST', '/api/v1/ai/review-sql', { sql: SLOW_REVIEW })];
    let running = 0;
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (running = await slotsHeld()) < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    t.equal(running, 2, 'both slow statements hold a slot');
    const [third, other, job] = await Promise.all([
      asMember('POST', '/api/v1/ai/review-sql', { sql: 'SELECT 1 AS one' }),
      asBeta('POST', '/api/v1/ai/review-sql', { sql: 'SELECT 1 AS one' }),
      // A run (a job) waits for a slot instead of failing.
      asAdmin('POST', `/api/v1/transforms/${cheap.body.id}/materialize`, { wait: true }),
    ]);
    t.same([third.status, third.body.code], [429, 'SQL_CONCURRENCY_LIMIT'], JSON.stringify(third.body));
    t.equal(third.headers['retry-after'], '1');
    t.equal(other.status, 200, 'another tenant is not held back');
    t.same([job.body.status, job.body.error], ['succeeded', null], JSON.stringify(job.body));
    t.same((await Promise.all(slow)).map((res) => [res.status, res.body.code]), [[422, 'SQL_TIMEOUT'], [422, 'SQL_TIMEOUT']]);
  });

  t.test('a materialization past its job budget: the run fails with TRANSFORM_STATEMENT_TIMEOUT and writes nothing', async (t) => {
    const created = await asAdmin('POST', '/api/v1/transforms', { name: 'counted', sql: 'SELECT 1::bigint AS n' });
    t.equal(created.status, 201, JSON.stringify(created.body));
    const first = await asAdmin('POST', `/api/v1/transforms/${created.body.id}/materialize`, { wait: true });
    t.equal(first.body.status, 'succeeded', JSON.stringify(first.body));
    const before = (await asAdmin('GET', `/api/v1/datasets/${first.body.output_dataset}`)).body;
    // Planned at once (the analysis passes), 10^10 rows to count when run.
    const patched = await asAdmin('PATCH', `/api/v1/transforms/${created.body.id}`, { sql: 'SELECT count(*) AS n FROM generate_series(1, 100000) a, generate_series(1, 100000) b' });
    t.equal(patched.status, 200, JSON.stringify(patched.body));
    const run = await asAdmin('POST', `/api/v1/transforms/${created.body.id}/materialize`, { wait: true });
    t.same([run.body.status, run.body.error?.code], ['failed', 'TRANSFORM_STATEMENT_TIMEOUT'], JSON.stringify(run.body));
    const after = (await asAdmin('GET', `/api/v1/datasets/${first.body.output_dataset}`)).body;
    t.same([after.latest_snapshot_id, after.row_count], [before.latest_snapshot_id, before.row_count], 'the dataset is as it was');
    t.equal(await slotsHeld(), 0);
  });
});

import t from 'tap';
import { startTestPlatform } from '../harness.ts';

t.test('health, readiness, metrics and docs', async (t) => {
  const tp = await startTestPlatform(t);
  const health = await tp.request({ url: '/health' });
  t.equal(health.status, 200);
  t.same(health.body, { status: 'ok' });

  const ready = await tp.request({ url: '/readyz' });
  t.equal(ready.status, 200);
  t.match(ready.body.checks, { database: 'ok', migrations: 'ok', master_key: 'ok' });
  t.ok(Object.values(ready.body.checks).every((value) => value === 'ok'), 'every check, the plugins\' too, is ok');

  await tp.request({ url: '/api/admin/tenants', token: tp.adminToken });
  const metrics = await tp.request({ url: '/api/v1/metrics' });
  t.equal(metrics.status, 200);
  t.match(metrics.headers['content-type'], /text\/plain/);
  t.match(metrics.body, /http_request_duration_seconds_bucket\{[^}]*route="\/api\/admin\/tenants"/);
  t.match(metrics.body, /# TYPE platform_jobs gauge/);

  const docs = await tp.request({ url: '/docs/openapi.json' });
  t.equal(docs.status, 200);
  t.ok(docs.body.paths['/api/admin/clients'], 'OpenAPI lists the tenancy routes');
  t.ok(docs.body.paths['/api/admin/functions/{name}/call'], 'OpenAPI lists the core routes');
  t.equal(docs.body.openapi, '3.1.0');
  const ui = await tp.request({ url: '/docs' });
  t.equal(ui.status, 200);
  t.match(ui.body, /swagger/i);
});

t.test('readyz answers 503 naming the failed check', async (t) => {
  const tp = await startTestPlatform(t);
  await tp.platform.core.pool.query(`DELETE FROM platform_migrations WHERE name = '0002_tenancy.sql'`);
  const ready = await tp.request({ url: '/readyz', token: tp.adminToken });
  t.equal(ready.status, 503);
  t.equal(ready.body.checks.database, 'ok');
  t.match(ready.body.checks.migrations, /pending core\/0002_tenancy\.sql/);
  const anonymous = await tp.request({ url: '/readyz' });
  t.equal(anonymous.status, 503);
  t.match(anonymous.body.checks, { database: 'ok', migrations: 'failed', master_key: 'ok' }, 'anonymous callers see no details');
  t.ok(Object.values(anonymous.body.checks).every((value) => value === 'ok' || value === 'failed'), 'no check shows details');
});

t.test('readyz shows raw database errors to the super-admin only', async (t) => {
  const tp = await startTestPlatform(t);
  // A failing database: the pool's query answers with a driver-style error naming the host and user.
  const pool = tp.platform.core.pool;
  const original = pool.query.bind(pool);
  (pool as any).query = async () => {
    throw new Error('connect ECONNREFUSED 10.1.2.3:5432 password authentication failed for user "platform_owner"');
  };
  t.teardown(() => {
    (pool as any).query = original;
  });
  const anonymous = await tp.request({ url: '/readyz' });
  t.equal(anonymous.status, 503);
  t.equal(anonymous.body.checks.database, 'failed');
  t.notMatch(JSON.stringify(anonymous.body), /ECONNREFUSED|10\.1\.2\.3|platform_owner/);
  const bogus = await tp.request({ url: '/readyz', token: 'not-a-token' });
  t.equal(bogus.status, 503);
  t.notMatch(JSON.stringify(bogus.body), /ECONNREFUSED/, 'an invalid token is anonymous');
  const admin = await tp.request({ url: '/readyz', token: tp.adminToken });
  t.equal(admin.status, 503);
  t.match(admin.body.checks.database, /failed: connect ECONNREFUSED 10\.1\.2\.3/);
});

t.test('METRICS_TOKEN protects the metrics endpoint', async (t) => {
  const tp = await startTestPlatform(t, { env: { METRICS_TOKEN: 'scrape-secret-123' } });
  const none = await tp.request({ url: '/api/v1/metrics' });
  t.equal(none.status, 401);
  t.equal(none.body.code, 'INVALID_TOKEN');
  const wrong = await tp.request({ url: '/api/v1/metrics', token: 'scrape-secret-124' });
  t.equal(wrong.status, 401);
  const admin = await tp.request({ url: '/api/v1/metrics', token: tp.adminToken });
  t.equal(admin.status, 401, 'only METRICS_TOKEN opens metrics');
  const right = await tp.request({ url: '/api/v1/metrics', token: 'scrape-secret-123' });
  t.equal(right.status, 200);
  t.match(right.body, /# TYPE platform_jobs gauge/);
});

t.test('/api/v1/status and /api/v1/services/health', async (t) => {
  const tp = await startTestPlatform(t);
  const status = await tp.request({ url: '/api/v1/status' });
  t.equal(status.status, 200);
  t.equal(status.body.status, 'ok');
  t.equal(status.body.version, '0.1.0');
  t.type(status.body.uptime_seconds, 'number');

  const health = await tp.request({ url: '/api/v1/services/health' });
  t.equal(health.status, 200);
  t.equal(health.body.status, 'healthy');
  t.same(health.body.services.database, { status: 'ok' });
  t.notOk(health.body.plugins, 'the loaded plugins are for the super-admin');
  const admin = await tp.request({ url: '/api/v1/services/health', token: tp.adminToken });
  t.ok(admin.body.plugins.includes('tenancy'), 'the super-admin sees the loaded plugins');

  await tp.platform.core.pool.query(`DELETE FROM platform_migrations WHERE name = '0002_tenancy.sql'`);
  const failing = await tp.request({ url: '/api/v1/services/health' });
  t.equal(failing.status, 503);
  t.equal(failing.body.status, 'unhealthy');
  t.same(failing.body.services.migrations, { status: 'failed' }, 'anonymous callers see which service, not why');
  const detailed = await tp.request({ url: '/api/v1/services/health', token: tp.adminToken });
  t.match(detailed.body.services.migrations.detail, /pending core\/0002_tenancy\.sql/);
});

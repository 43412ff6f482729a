import t from 'tap';
import { startTestPlatform } from '../harness.ts';

t.test('health, readiness, metrics and docs', async (t) => {
  const tp = await startTestPlatform(t);
  const health = await tp.request({ url: '/health' });
  t.equal(health.status, 200);
  t.same(health.body, { status: 'ok' });

  const ready = await tp.request({ url: '/readyz' });
  t.equal(ready.status, 200);
  t.same(ready.body.checks, { database: 'ok', migrations: 'ok', master_key: 'ok' });

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
  const ui = await tp.request({ url: '/docs' });
  t.equal(ui.status, 200);
  t.match(ui.body, /swagger/i);
});

t.test('readyz answers 503 naming the failed check', async (t) => {
  const tp = await startTestPlatform(t);
  await tp.platform.core.pool.query(`DELETE FROM platform_migrations WHERE name = '0002_tenancy.sql'`);
  const ready = await tp.request({ url: '/readyz' });
  t.equal(ready.status, 503);
  t.equal(ready.body.checks.database, 'ok');
  t.match(ready.body.checks.migrations, /pending 0002_tenancy\.sql/);
});

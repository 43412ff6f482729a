import t from 'tap';
import { startTestPlatform, tenantWithAdmin } from '../harness.ts';

const entries = (logs: string[]) => logs.map((line) => JSON.parse(line) as Record<string, any>);

t.test('each request logs one completion line with the request and response, credentials redacted', async (t) => {
  const tp = await startTestPlatform(t, { captureLogs: true });
  const tenant = await tenantWithAdmin(tp, 'reqlog');
  const before = tp.logs.length;
  const listed = await tp.request({ url: '/api/admin/clients?limit=5', token: tenant.token, tenant: 'reqlog' });
  t.equal(listed.status, 200);
  await tp.request({ url: '/health' });
  await tp.request({ url: '/api/v1/metrics' });

  const completions = entries(tp.logs.slice(before)).filter((entry) => String(entry.msg).startsWith('[response]'));
  t.equal(completions.length, 1, 'one line for the API call; probes and scrapes are not logged');
  const [line] = completions;
  t.equal(line!.msg.replace(/\(\d+ms\)$/, '(Nms)'), '[response] get /api/admin/clients 200 (Nms)');
  t.equal(line!.level, 30, 'at info');
  t.equal(line!.req.method, 'get');
  t.equal(line!.req.url, '/api/admin/clients');
  t.match(line!.req.query, { limit: 5 }, 'the query as the route validated it');
  t.equal(line!.req.headers.authorization, '[REDACTED]', 'the bearer token is redacted');
  t.equal(line!.req.headers['x-tenant-id'], 'reqlog');
  t.equal(line!.res.statusCode, 200);
  t.type(line!.responseTime, 'number');
  t.notOk(tp.logs.join('\n').includes(tenant.token), 'the token is in no line');
});

t.test('request.logger is bound to its request, and made only when used', async (t) => {
  const tp = await startTestPlatform(t, { captureLogs: true, env: { LOG_LEVEL: 'warn' } });
  tp.platform.server.route({
    method: 'GET', path: '/test/log-through-request', options: { auth: false, plugins: { platform: { tenant: 'none' } } },
    handler: (request) => {
      request.logger.warn({ detail: 'x' }, 'from the route');
      return { ok: true };
    },
  });
  tp.platform.server.route({ method: 'GET', path: '/test/quiet', options: { auth: false, plugins: { platform: { tenant: 'none' } } }, handler: () => ({ ok: true }) });

  const before = tp.logs.length;
  t.equal((await tp.request({ url: '/test/quiet' })).status, 200);
  t.equal(tp.logs.length, before, 'above info, a request that logs nothing writes nothing');
  t.equal((await tp.request({ url: '/test/log-through-request', headers: { authorization: 'Bearer not-logged-value' } })).status, 200);
  const lines = entries(tp.logs.slice(before));
  t.equal(lines.length, 1);
  t.equal(lines[0]!.msg, 'from the route');
  t.equal(lines[0]!.level, 40);
  t.equal(lines[0]!.detail, 'x');
  t.equal(lines[0]!.req.url, '/test/log-through-request', 'the line carries its request');
  t.equal(lines[0]!.req.headers.authorization, '[REDACTED]');
});

t.test('a failing handler is logged as an error with its stack, and answered without it', async (t) => {
  const tp = await startTestPlatform(t, { captureLogs: true, env: { LOG_LEVEL: 'warn' } });
  tp.platform.server.route({
    method: 'GET', path: '/test/broken', options: { auth: false, plugins: { platform: { tenant: 'none' } } },
    handler: () => {
      throw new Error('internal detail that stays in the log');
    },
  });
  const res = await tp.request({ url: '/test/broken' });
  t.equal(res.status, 500);
  t.notMatch(JSON.stringify(res.body), /internal detail/);
  const errors = entries(tp.logs).filter((entry) => entry.level === 50);
  t.ok(errors.some((entry) => entry.err?.message === 'internal detail that stays in the log' && entry.req?.url === '/test/broken'));
});

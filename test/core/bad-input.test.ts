import t from 'tap';
import { startTestPlatform, tenantWithAdmin } from '../harness.ts';

t.test('bad input gets a clear 4xx and changes nothing', async (t) => {
  const tp = await startTestPlatform(t);
  const tenant = await tenantWithAdmin(tp, 'bad-input');
  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    tp.request({ method: 'POST', url: '/api/admin/clients', token: tenant.token, payload: payload as never, headers });

  const malformed = await post('{"name": "web",', { 'content-type': 'application/json' });
  t.equal(malformed.status, 400);
  t.match(malformed.body.message, /JSON/);

  const wrongType = await post('name=web', { 'content-type': 'text/plain' });
  t.equal(wrongType.status, 415);

  const huge = await post(JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }), { 'content-type': 'application/json' });
  t.equal(huge.status, 413);

  const unknown = await post({ name: 'web', colour: 'blue' });
  t.equal(unknown.status, 400);
  t.match(unknown.body.message, /"colour" is not allowed/);
  t.same(unknown.body.fields, ['colour']);
  t.equal(unknown.body.code, 'VALIDATION_FAILED');

  const missing = await post({});
  t.equal(missing.status, 400);
  t.match(missing.body.message, /"name" is required/);

  const badParam = await tp.request({ url: '/api/admin/clients/abc', token: tenant.token });
  t.equal(badParam.status, 400);
  t.match(badParam.body.message, /"id" must be a number/);

  const badQuery = await tp.request({ url: '/api/admin/clients?limit=0', token: tenant.token });
  t.equal(badQuery.status, 400);
  t.match(badQuery.body.message, /"limit" must be greater than or equal to 1/);

  const notFound = await tp.request({ url: '/api/admin/nothing-here', token: tenant.token });
  t.equal(notFound.status, 404);

  for (const response of [malformed, wrongType, huge, unknown, missing, badParam, badQuery, notFound]) {
    t.same(Object.keys(response.body).slice(0, 3), ['statusCode', 'error', 'message'], 'error body shape');
    t.notMatch(JSON.stringify(response.body), /at .*\.ts:\d+/, 'no stack trace');
  }

  const listed = await tp.request({ url: '/api/admin/clients', token: tenant.token });
  t.same(listed.body.items.map((c: { name: string }) => c.name), ['default'], 'nothing was created (the tenant has only its default client)');
});

t.test('conflicts and unknown references are 4xx, not 500', async (t) => {
  const tp = await startTestPlatform(t);
  const tenant = await tenantWithAdmin(tp, 'conflicts');
  const first = await tp.request({ method: 'POST', url: '/api/admin/clients', token: tenant.token, payload: { name: 'a', client_key: 'shared-key' } });
  t.equal(first.status, 201);
  const again = await tp.request({ method: 'POST', url: '/api/admin/clients', token: tenant.token, payload: { name: 'b', client_key: 'shared-key' } });
  t.equal(again.status, 409);
  t.equal(again.body.code, 'CLIENT_KEY_TAKEN');
  const orphan = await tp.request({ method: 'POST', url: '/api/admin/api-keys', token: tenant.token, payload: { name: 'k', client_id: 999999 } });
  t.equal(orphan.status, 404);
  t.equal(orphan.body.code, 'CLIENT_NOT_FOUND');
});

// Citizens' support of an existing report (public, counted once per client
// address within the window, refused on a closed report) and the public read
// of the tenant's service area.
import t from 'tap';
import { api, occurrencesPlatform, report, rows } from './helpers.ts';

t.test('support: counted once per client within the window, shown to staff, refused when closed', async (t) => {
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };
  const { tp, admin, staff } = await occurrencesPlatform(t, { services: { clock }, occurrences: { trustProxy: true, supportWindowHours: 24 } });
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'allow' });
  const created = (await a.submit('acme', report(type.id))).body;
  const support = (reference: string, address = '203.0.113.7', tenant: string | undefined = 'acme', slash = '') =>
    a.call('POST', `/api/occurrences/${reference}/support${slash}`, { tenant, headers: { 'x-forwarded-for': address } });

  const first = await support(created.reference);
  t.equal(first.status, 200);
  t.same(first.body, { reference: created.reference, support_count: 1, counted: true }, 'the first support counts');
  t.same((await support(created.reference, '203.0.113.7', 'acme', '/')).body, { reference: created.reference, support_count: 1, counted: false }, 'a repeat from the same client does not');
  t.same((await support(created.reference, '198.51.100.4')).body.support_count, 2, 'another client counts');
  offsetMs = 25 * 3_600_000;
  t.same((await support(created.reference)).body, { reference: created.reference, support_count: 3, counted: true }, 'the same client again after the window');

  const detail = await a.call('GET', `/api/backoffice/occurrences/${created.id}`, { token: staff });
  t.equal(detail.body.support_count, 3, 'staff see the count');
  const stored = await rows(tp, 'occurrence_supports', 'acme');
  t.equal(stored.length, 2, 'one row per client');
  t.notOk(JSON.stringify(stored).includes('203.0.113.7'), 'the client address is not stored');

  const unknown = await support('OC-2026-999999');
  t.equal(unknown.status, 404, 'an unknown reference');
  t.equal(unknown.body.code, 'OCCURRENCE_NOT_FOUND');
  t.equal((await support('bad%20ref')).status, 400, 'a malformed reference');
  t.equal((await a.call('POST', `/api/occurrences/${created.reference}/support`, {})).body.code, 'TENANT_REQUIRED');
  t.equal((await support(created.reference, '203.0.113.7', 'nobody')).status, 404, 'an unknown tenant');

  t.equal((await a.transition(staff, created.id, { to_state: 'rejected' })).status, 200);
  const closed = await support(created.reference, '192.0.2.9');
  t.equal(closed.status, 409, 'a closed report takes no support');
  t.equal(closed.body.code, 'OCCURRENCE_CLOSED');
  t.equal((await a.call('GET', `/api/backoffice/occurrences/${created.id}`, { token: staff })).body.support_count, 3, 'and the count is unchanged');
});

t.test('support is rate limited per address and tenant', async (t) => {
  const { tp, admin } = await occurrencesPlatform(t, { occurrences: { publicRatePerMinute: 2 } });
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'allow' });
  const created = (await a.submit('acme', report(type.id))).body;
  const statuses: number[] = [];
  for (let i = 0; i < 3; i += 1) statuses.push((await a.call('POST', `/api/occurrences/${created.reference}/support`, { tenant: 'acme' })).status);
  t.same(statuses, [200, 429, 429], 'the submission spent the first token, the second support is refused');
  const refused = await a.call('POST', `/api/occurrences/${created.reference}/support`, { tenant: 'acme' });
  t.ok(refused.headers['retry-after'], 'with Retry-After');
  t.equal((await rows(tp, 'occurrences', 'acme'))[0]!.support_count, 1, 'refused requests changed nothing');
});

t.test('the public service area: null, then the configured polygon', async (t) => {
  const { tp, admin } = await occurrencesPlatform(t);
  const a = api(tp);
  t.same((await a.call('GET', '/api/occurrences/service_area', { tenant: 'acme' })).body, { service_area: null });
  const area = { type: 'Polygon', coordinates: [[[-9.2, 38.7], [-9.1, 38.7], [-9.1, 38.8], [-9.2, 38.8], [-9.2, 38.7]]] };
  t.equal((await a.call('PUT', '/api/backoffice/settings', { token: admin }, { service_area: area })).status, 200);
  for (const url of ['/api/occurrences/service_area', '/api/occurrences/service_area/']) {
    const read = await a.call('GET', url, { tenant: 'acme' });
    t.equal(read.status, 200, url);
    t.same(read.body, { service_area: area }, `${url}: the polygon`);
  }
  t.equal((await a.call('GET', '/api/occurrences/service_area', {})).status, 400, 'X-Tenant-ID is required');
});

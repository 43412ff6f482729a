// Public submission: dynamic fields validated against v0
// and v1 (Form.io) form schemas with per-field 422s, the location checked
// against ranges and the tenant's service area, references unique per
// tenant, occurrence.submitted emitted, reporters' personal data absent from
// public answers but visible to staff, and the per-address-and-tenant rate limit.
import t from 'tap';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import { api, eventsOf, leaksPersonal, occurrencesPlatform, report, rows, V1_SCHEMA } from './helpers.ts';

t.test('a citizen reports an occurrence; staff see who reported it, the public never does', async (t) => {
  const { tp, admin, staff } = await occurrencesPlatform(t);
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'allow' });

  for (const path of ['/api/occurrences/public_submit', '/api/occurrences/public_submit/']) {
    const sent = await a.call('POST', path, { tenant: 'acme' }, report(type.id));
    t.equal(sent.status, 201, `${path}: ${JSON.stringify(sent.body)}`);
    t.match(sent.body, { id: Number, reference: /^OC-\d{4}-\d{6}$/, state: 'submitted', created_at: String });
    t.same(leaksPersonal(sent.body), [], 'the answer holds no personal data');
  }
  const stored = await rows(tp, 'occurrences', 'acme');
  t.same(stored.map((row) => row.reference), [`OC-${new Date().getUTCFullYear()}-000001`, `OC-${new Date().getUTCFullYear()}-000002`]);
  t.match(stored[0], { reporter_name: 'Ana Silva', reporter_email: 'ana@example.org', source: 'public', state: 'submitted', dynamic_fields: { depth_cm: 12, lane: 'right' } });
  const history = await rows(tp, 'occurrence_history', 'acme');
  t.match(history[0], { occurrence_id: stored[0].id, from_state: null, to_state: 'submitted' });

  const [event] = await eventsOf(tp, admin, 'occurrence.submitted', 2);
  t.match(event.data, { occurrence_id: Number, reference: /^OC-/, occurrence_type: type.id, state: 'submitted', source: 'public' });
  t.same(leaksPersonal(event), [], 'events carry no personal data');

  const detail = await a.call('GET', `/api/backoffice/occurrences/${stored[0].id}/`, { token: staff });
  t.equal(detail.status, 200);
  t.match(detail.body, { reporter_name: 'Ana Silva', reporter_email: 'ana@example.org', reporter_phone: '+351 912 345 678' }, 'staff see the reporter');

  // A second tenant numbers its own references from 1.
  const other = await tenantWithAdmin(tp, 'other');
  const otherType = await a.type(other.token, { duplicate_policy: 'allow' });
  t.match((await a.submit('other', report(otherType.id))).body, { reference: /-000001$/ });
});

t.test('dynamic fields: v0 field lists and v1 Form.io schemas give per-field 422s; nothing is stored', async (t) => {
  const { tp, admin } = await occurrencesPlatform(t);
  const a = api(tp);
  const v0 = await a.type(admin, { duplicate_policy: 'allow' });
  const v1 = await a.type(admin, { form_schema: V1_SCHEMA, duplicate_policy: 'allow' });

  const missing = await a.submit('acme', report(v0.id, { dynamic_fields: { lane: 'middle', extra: 1 } }));
  t.equal(missing.status, 422);
  t.equal(missing.body.code, 'VALIDATION_FAILED');
  t.same(missing.body.errors.map((e: { field: string }) => e.field).sort(), ['dynamic_fields.depth_cm', 'dynamic_fields.extra', 'dynamic_fields.lane']);
  const wrongType = await a.submit('acme', report(v0.id, { dynamic_fields: { depth_cm: 'deep' } }));
  t.same(wrongType.body.errors, [{ field: 'dynamic_fields.depth_cm', message: 'Depth must be an integer' }]);

  const formio = await a.submit('acme', report(v1.id, { dynamic_fields: { pole: 'x1' } }));
  t.equal(formio.status, 422, JSON.stringify(formio.body));
  t.same(formio.body.errors.map((e: { field: string }) => e.field).sort(), ['dynamic_fields.lamps', 'dynamic_fields.pole'], 'Form.io: required and pattern');
  const fine = await a.submit('acme', report(v1.id, { dynamic_fields: { lamps: 3, pole: 'AB-123' } }));
  t.equal(fine.status, 201, JSON.stringify(fine.body));
  t.same((await rows(tp, 'occurrences', 'acme')).map((row) => row.dynamic_fields), [{ lamps: 3, pole: 'AB-123' }], 'only the valid report is stored');

  const inactive = await a.type(admin, { active: false });
  t.same((await a.submit('acme', report(inactive.id))).body.errors, [{ field: 'occurrence_type', message: 'the type is not active' }]);
  t.equal((await a.submit('acme', report(v0.id, { latitude: 91 }))).status, 400, 'a latitude out of range is bad input');
  t.equal((await a.submit('acme', report(v0.id, { longitude: -181 }))).status, 400);
  t.equal((await a.submit('acme', report(v0.id, { reporter_email: 'not-an-email' }))).status, 400);
  t.equal((await a.submit('acme', { ...report(v0.id), unknown: 1 })).status, 400, 'unknown body fields are refused');
});

t.test('a service area refuses reports outside it', async (t) => {
  const { tp, admin, staff } = await occurrencesPlatform(t);
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'allow' });
  const lisbon = { type: 'Polygon', coordinates: [[[-9.25, 38.68], [-9.05, 38.68], [-9.05, 38.80], [-9.25, 38.80], [-9.25, 38.68]]] };
  t.equal((await a.call('PUT', '/api/backoffice/settings/', { token: staff }, { service_area: lisbon })).status, 403, 'staff admin only');
  const set = await a.call('PUT', '/api/backoffice/settings/', { token: admin }, { service_area: lisbon });
  t.equal(set.status, 200, JSON.stringify(set.body));
  t.same((await a.call('GET', '/api/backoffice/settings', { token: admin })).body.service_area, lisbon);

  const outside = await a.submit('acme', report(type.id, { latitude: 41.15, longitude: -8.61 }));
  t.equal(outside.status, 422);
  t.equal(outside.body.code, 'OUTSIDE_SERVICE_AREA');
  t.match(outside.body.message, /outside the service area/);
  t.equal((await a.check('acme', report(type.id, { latitude: 41.15, longitude: -8.61 }))).body.code, 'OUTSIDE_SERVICE_AREA');
  t.equal((await a.submit('acme', report(type.id))).status, 201, 'inside: accepted');
  t.equal((await a.call('PUT', '/api/backoffice/settings', { token: admin }, { service_area: { type: 'Point', coordinates: [1, 2] } })).status, 400);
  await a.call('PUT', '/api/backoffice/settings', { token: admin }, { service_area: null });
  t.equal((await a.submit('acme', report(type.id, { latitude: 41.15, longitude: -8.61 }))).status, 201, 'no area: anywhere');
});

t.test('anonymous requests are rate limited per client address and tenant', async (t) => {
  const { tp, admin } = await occurrencesPlatform(t, { occurrences: { publicRatePerMinute: 3, trustProxy: true } });
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'allow' });
  const from = (address: string) => ({ 'x-forwarded-for': address });
  for (let i = 0; i < 3; i++) t.equal((await a.submit('acme', report(type.id), from('203.0.113.7'))).status, 201);
  const limited = await a.submit('acme', report(type.id), from('203.0.113.7'));
  t.equal(limited.status, 429);
  t.equal(limited.body.code, 'RATE_LIMITED');
  t.ok(Number(limited.headers['retry-after']) >= 1, 'Retry-After says when to come back');
  t.equal((await a.call('GET', `/api/occurrence-types/${type.id}`, { tenant: 'acme', headers: from('203.0.113.7') })).status, 429, 'reads share the bucket');
  t.equal((await a.submit('acme', report(type.id), from('203.0.113.8'))).status, 201, 'another address has its own bucket');
  await tenantWithAdmin(tp, 'other');
  t.equal((await a.call('GET', '/api/occurrence-types', { tenant: 'other', headers: from('203.0.113.7') })).status, 200, 'and so has another tenant');
  t.equal((await rows(tp, 'occurrences', 'acme')).length, 4, 'the refused report was not stored');
});

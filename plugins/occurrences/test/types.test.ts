// Occurrence types: staff-admin CRUD with v0 and v1 form
// schemas checked when saved, public reads of active types only (with and
// without the trailing slash), roles, and tenant isolation.
import t from 'tap';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import { api, occurrencesPlatform, report, V0_SCHEMA, V1_SCHEMA } from './helpers.ts';

t.test('staff admins manage types; citizens read the active ones', async (t) => {
  const { tp, admin, staff, member } = await occurrencesPlatform(t);
  const a = api(tp);

  const v1 = await a.call('POST', '/api/backoffice/occurrence-types', { token: admin }, { name: 'Streetlight out', code: 'light', form_schema: V1_SCHEMA, duplicate_policy: 'reject' });
  t.equal(v1.status, 201, JSON.stringify(v1.body));
  t.match(v1.body, { id: Number, name: 'Streetlight out', code: 'light', duplicate_policy: 'reject', duplicate_radius_m: 50, duplicate_window_days: 30, active: true });
  t.same(v1.body.form_schema, V1_SCHEMA);
  const v0 = await a.call('POST', '/api/backoffice/occurrence-types/', { token: admin }, { name: 'Pothole', code: 'pothole', form_schema: V0_SCHEMA });
  t.equal(v0.status, 201, 'the path with a trailing slash answers the same');
  t.equal(v0.body.duplicate_policy, 'warn', 'warn is the default policy');

  t.equal((await a.call('POST', '/api/backoffice/occurrence-types', { token: admin }, { name: 'Again', code: 'light', form_schema: V0_SCHEMA })).body.code,
    'OCCURRENCE_TYPE_CODE_TAKEN');
  const badV1 = await a.call('POST', '/api/backoffice/occurrence-types', { token: admin }, {
    name: 'Bad', code: 'bad', form_schema: { version: 'v1', format: 'FORMIO', schema: { components: [{ type: 'textfield', key: 'x', input: true, validate: { custom: 'valid = true' } }] } },
  });
  t.equal(badV1.status, 400);
  t.equal(badV1.body.code, 'FORM_SCHEMA_INVALID', 'a Form.io schema with code is refused');
  const badV0 = await a.call('POST', '/api/backoffice/occurrence-types', { token: admin }, {
    name: 'Bad', code: 'bad', form_schema: { version: 'v0', dynamic_fields: [{ key: 'k', label: 'K', type: 'select', required: true }] },
  });
  t.equal(badV0.body.code, 'FORM_SCHEMA_INVALID', 'a select without options is refused');
  t.equal((await a.call('POST', '/api/backoffice/occurrence-types', { token: admin }, { name: 'Bad', code: 'bad', form_schema: { version: 'v2' } })).status, 400);

  // Roles: types are staff-admin configuration.
  for (const [who, token, status] of [['staff', staff, 403], ['member', member, 403], ['anonymous', undefined, 401]] as const) {
    t.equal((await a.call('POST', '/api/backoffice/occurrence-types', { token, tenant: 'acme' }, { name: 'X', code: 'x', form_schema: V0_SCHEMA })).status, status, `${who} cannot create`);
    t.equal((await a.call('GET', '/api/backoffice/occurrence-types', { token, tenant: 'acme' })).status, status, `${who} cannot list the admin view`);
  }

  const updated = await a.call('PUT', `/api/backoffice/occurrence-types/${v0.body.id}/`, { token: admin }, {
    name: 'Pothole (road)', code: 'pothole', form_schema: V0_SCHEMA, duplicate_radius_m: 80, active: false,
  });
  t.equal(updated.status, 200, JSON.stringify(updated.body));
  t.match(updated.body, { name: 'Pothole (road)', duplicate_radius_m: 80, active: false });
  t.equal((await a.call('GET', `/api/backoffice/occurrence-types/${v0.body.id}`, { token: admin })).body.active, false);

  // Public reads: active types only, no policy internals, no login.
  for (const path of ['/api/occurrence-types', '/api/occurrence-types/']) {
    const listed = await a.call('GET', path, { tenant: 'acme' });
    t.equal(listed.status, 200);
    t.same(listed.body.items.map((item: { code: string }) => item.code), ['light'], `${path}: the inactive type is not listed`);
    t.same(Object.keys(listed.body.items[0]).sort(), ['code', 'form_schema', 'id', 'name']);
  }
  for (const path of [`/api/occurrence-types/${v1.body.id}`, `/api/occurrence-types/${v1.body.id}/`]) {
    const one = await a.call('GET', path, { tenant: 'acme' });
    t.equal(one.status, 200, path);
    t.same(one.body, { id: v1.body.id, name: 'Streetlight out', code: 'light', form_schema: V1_SCHEMA });
  }
  t.equal((await a.call('GET', `/api/occurrence-types/${v0.body.id}/`, { tenant: 'acme' })).body.code, 'OCCURRENCE_TYPE_NOT_FOUND', 'inactive: not found');
  t.equal((await a.call('GET', '/api/occurrence-types/', {})).body.code, 'TENANT_REQUIRED');
  t.equal((await a.call('GET', '/api/occurrence-types/', { tenant: 'Not Valid' })).body.code, 'TENANT_INVALID');
  t.equal((await a.call('GET', '/api/occurrence-types/', { tenant: 'nobody' })).body.code, 'TENANT_NOT_FOUND');

  // Deleting: refused while occurrences have the type.
  const used = await a.submit('acme', { title: 'Lamp out', occurrence_type: v1.body.id, latitude: 38.7, longitude: -9.1, dynamic_fields: { lamps: 2 } });
  t.equal(used.status, 201, JSON.stringify(used.body));
  const refused = await a.call('DELETE', `/api/backoffice/occurrence-types/${v1.body.id}/`, { token: admin });
  t.equal(refused.status, 409);
  t.equal(refused.body.code, 'OCCURRENCE_TYPE_IN_USE');
  t.equal((await a.call('DELETE', `/api/backoffice/occurrence-types/${v0.body.id}`, { token: admin })).status, 204);
  t.equal((await a.call('GET', `/api/backoffice/occurrence-types/${v0.body.id}`, { token: admin })).status, 404);
});

t.test('another tenant sees none of these types', async (t) => {
  const { tp, admin } = await occurrencesPlatform(t);
  const other = await tenantWithAdmin(tp, 'other');
  const a = api(tp);
  const type = await a.type(admin);
  t.same((await a.call('GET', '/api/backoffice/occurrence-types', { token: other.token })).body.items, []);
  t.equal((await a.call('GET', `/api/backoffice/occurrence-types/${type.id}`, { token: other.token })).status, 404);
  t.equal((await a.call('GET', `/api/occurrence-types/${type.id}`, { tenant: 'other' })).status, 404);
  t.equal((await a.call('GET', `/api/backoffice/occurrence-types`, { token: other.token, tenant: 'acme' })).body.code, 'TENANT_FORBIDDEN');
  const submitted = await a.submit('other', report(type.id));
  t.equal(submitted.status, 422, 'a type of another tenant is no type here');
  t.same(submitted.body.errors, [{ field: 'occurrence_type', message: 'no such occurrence type' }]);
});

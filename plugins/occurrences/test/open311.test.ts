// Open311 GeoReport v2: a client's round trip over real
// HTTP (discovery → services → service definition → POST requests.json,
// form-encoded → GET requests/{id}.json), the standard filters, open and
// closed, public fields only, and the tenant in the path.
import t from 'tap';
import { api, leaksPersonal, occurrencesPlatform, report, V1_SCHEMA } from './helpers.ts';

t.test('an Open311 client discovers the services, reports, and reads its request back', async (t) => {
  const { tp, admin, staff } = await occurrencesPlatform(t, { listen: true });
  const a = api(tp);
  const potholes = await a.type(admin, { code: 'pothole', duplicate_policy: 'allow' });
  await a.type(admin, { code: 'streetlight', name: 'Streetlight', form_schema: V1_SCHEMA, duplicate_policy: 'allow' });
  await a.type(admin, { code: 'retired', active: false });

  // The client: plain HTTP, form-encoded posts, JSON answers.
  const get = async (path: string) => {
    const response = await fetch(tp.url(path));
    return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
  };
  const discovery = await get('/open311/v2/acme/discovery.json');
  t.equal(discovery.status, 200);
  t.match(discovery.type, /application\/json/);
  const endpoint = discovery.body.endpoints[0];
  t.match(endpoint, { specification: 'http://wiki.open311.org/GeoReport_v2', type: 'production', formats: ['application/json'] });
  const root = new URL(endpoint.url).pathname;
  t.equal(root, '/open311/v2/acme');

  const services = await get(`${root}/services.json`);
  t.equal(services.status, 200);
  t.same(services.body.map((s: { service_code: string }) => s.service_code).sort(), ['pothole', 'streetlight'], 'active types only');
  t.match(services.body.find((s: { service_code: string }) => s.service_code === 'pothole'), { service_name: 'Pothole', metadata: true, type: 'realtime' });

  const definition = await get(`${root}/services/pothole.json`);
  t.equal(definition.status, 200);
  t.match(definition.body.attributes, [
    { code: 'depth_cm', datatype: 'number', required: true, order: 1, description: 'Depth' },
    { code: 'lane', datatype: 'singlevaluelist', required: false, values: [{ key: 'left' }, { key: 'right' }] },
  ]);
  t.match((await get(`${root}/services/streetlight.json`)).body.attributes, [{ code: 'lamps', datatype: 'number', required: true }, { code: 'pole', datatype: 'string' }], 'v1 Form.io fields');
  t.equal((await get(`${root}/services/retired.json`)).body.code, 'SERVICE_NOT_FOUND');

  const form = new URLSearchParams({
    service_code: 'pothole', lat: '38.7101', long: '-9.1366', address_string: 'Rua Augusta 10', description: 'Deep pothole\nright lane',
    email: 'ana@example.org', first_name: 'Ana', last_name: 'Silva', phone: '912345678', 'attribute[depth_cm]': '14', 'attribute[lane]': 'right',
    api_key: 'ignored', jurisdiction_id: 'city.example',
  });
  const posted = await fetch(tp.url(`${root}/requests.json`), { method: 'POST', body: form });
  const created = await posted.json();
  t.equal(posted.status, 201, JSON.stringify(created));
  t.match(created, [{ service_request_id: /^OC-\d{4}-\d{6}$/ }]);
  const id = created[0].service_request_id;

  const read = await get(`${root}/requests/${id}.json`);
  t.equal(read.status, 200);
  t.match(read.body, [{
    service_request_id: id, status: 'open', status_notes: 'Submitted', service_code: 'pothole', service_name: 'Pothole',
    description: 'Deep pothole\nright lane', address: 'Rua Augusta 10', lat: 38.7101, long: -9.1366, requested_datetime: String,
  }]);
  t.same(leaksPersonal(read.body), []);
  t.notOk(JSON.stringify(read.body).includes('912345678'));

  const staffView = (await a.call('GET', `/api/backoffice/occurrences/?reference=${id}`, { token: staff })).body.items[0];
  t.match(staffView, { title: 'Deep pothole', reporter_name: 'Ana Silva', reporter_email: 'ana@example.org', source: 'open311', dynamic_fields: { depth_cm: 14, lane: 'right' } });

  const json = await a.call('POST', `${root}/requests.json`, {}, { service_code: 'pothole', lat: 38.72, long: -9.14, description: 'Another', attribute: { depth_cm: 3 } });
  t.equal(json.status, 201, 'JSON posts too');
  const bad = await a.call('POST', `${root}/requests.json`, {}, { service_code: 'pothole', lat: 38.72, long: -9.14, attribute: { depth_cm: 'deep' } });
  t.equal(bad.status, 422);
  t.equal((await a.call('POST', `${root}/requests.json`, {}, { service_code: 'nothing', lat: 1, long: 1 })).body.code, 'SERVICE_NOT_FOUND');

  // Filters: status, service_code, ids, dates.
  await a.submit('acme', report(potholes.id, { latitude: 38.75 }));
  await a.transition(staff, staffView.id, { to_state: 'rejected' });
  const all = (await get(`${root}/requests.json`)).body;
  t.equal(all.length, 3);
  t.same(leaksPersonal(all), [], 'no personal data in the list');
  t.same((await get(`${root}/requests.json?status=closed`)).body.map((r: { service_request_id: string }) => r.service_request_id), [id]);
  t.equal((await get(`${root}/requests.json?status=open`)).body.length, 2);
  t.same((await get(`${root}/requests.json?service_request_id=${id}`)).body[0].status, 'closed');
  t.same((await get(`${root}/requests.json?service_code=streetlight`)).body, []);
  t.same((await get(`${root}/requests.json?start_date=2000-01-01T00:00:00Z&end_date=2000-02-01T00:00:00Z`)).body, []);
  t.equal((await get(`${root}/requests.json?status=pending`)).status, 400);
  t.equal((await get(`${root}/requests/OC-1999-000001.json`)).status, 404);

  // The tenant in the path: another tenant's requests are not there.
  await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id: 'other' } });
  t.same((await get('/open311/v2/other/requests.json')).body, []);
  t.equal((await get(`/open311/v2/other/requests/${id}.json`)).status, 404);
  t.equal((await get('/open311/v2/nobody/services.json')).body.code, 'TENANT_NOT_FOUND');
  t.equal((await get('/open311/v2/Bad%20Tenant/services.json')).status, 400);
});

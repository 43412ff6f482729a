// The occurrences.Occurrence hydration target: a forms use
// case targeting it creates occurrences through the public submission's path
// (validation, service area, dynamic fields, duplicate policy), with the
// submission's files as attachments; discovery lists the type's fields.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { api, occurrencesPlatform, rows } from './helpers.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const REPORT_FORM = {
  display: 'form',
  components: [
    { type: 'textfield', key: 'title', label: 'Title', input: true, validate: { required: true } },
    { type: 'textarea', key: 'description', label: 'Description', input: true },
    { type: 'textfield', key: 'location', label: 'Where (lat,lon)', input: true, validate: { required: true } },
    { type: 'email', key: 'reporter_email', label: 'Your e-mail', input: true },
    { type: 'number', key: 'depth_cm', label: 'Depth', input: true },
    { type: 'file', key: 'photos', label: 'Photos', input: true, multiple: true, storage: 'base64' },
  ],
};

t.test('a forms use case targeting occurrences.Occurrence creates occurrences as public submission does', async (t) => {
  const { tp, admin, staff } = await occurrencesPlatform(t);
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'reject' });
  const other = await a.type(admin, { active: false });

  const targets = await a.call('GET', '/api/admin/forms/targets', { token: admin });
  const target = targets.body.items.find((item: { model: string }) => item.model === 'occurrences.Occurrence');
  t.ok(target, 'registered with the forms plugin');
  t.same(target.config_schema[0].options.map((o: { id: number }) => o.id), [type.id], 'config: the active types');
  const fields = await a.call('GET', `/api/admin/forms/targets/occurrences.Occurrence/fields?config=${encodeURIComponent(JSON.stringify({ occurrence_type: type.id }))}`, { token: admin });
  t.equal(fields.status, 200, JSON.stringify(fields.body));
  const byKey = Object.fromEntries(fields.body.items.map((f: { key: string; category: string }) => [f.key, f.category]));
  t.match(byKey, { title: 'required', location: 'required', reporter_email: 'optional', 'dynamic_fields.depth_cm': 'dynamic', 'dynamic_fields.lane': 'dynamic', reference: 'auto_filled' });
  const standard = await a.call('GET', '/api/admin/forms/targets/occurrences.Occurrence/standard-mappings', { token: admin });
  t.match(standard.body.items, [{ source_path: 'title', target_field: 'title' }]);
  t.ok(standard.body.items.some((m: { source_path: string; component?: string }) => m.source_path === 'location' && m.component === 'latitude'));

  const definition = await a.call('POST', '/api/admin/forms/definitions', { token: admin }, { name: `report-${randomBytes(3).toString('hex')}`, schema: REPORT_FORM });
  t.equal(definition.status, 201, JSON.stringify(definition.body));
  t.equal((await a.call('POST', '/api/admin/forms/use-cases', { token: admin }, {
    name: 'Inactive', form_definition_id: definition.body.id, target_model: 'occurrences.Occurrence', target_config: { occurrence_type: other.id }, access: 'public',
  })).status, 400, 'an inactive type is not a valid config');
  const useCase = await a.call('POST', '/api/admin/forms/use-cases', { token: admin }, {
    name: 'Report a pothole', form_definition_id: definition.body.id, target_model: 'occurrences.Occurrence', target_config: { occurrence_type: type.id }, access: 'public',
  });
  t.equal(useCase.status, 201, JSON.stringify(useCase.body));

  const boundary = `----occ${randomBytes(8).toString('hex')}`;
  const upload = await tp.request({
    method: 'POST', url: '/api/forms/files', tenant: 'acme', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="hole.png"\r\nContent-Type: image/png\r\n\r\n`), PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
  t.equal(upload.status, 201, JSON.stringify(upload.body));

  const submit = (payload: Record<string, unknown>) => a.call('POST', `/api/forms/use-cases/${useCase.body.id}/submissions`, { tenant: 'acme' }, { payload });
  const sent = await submit({
    title: 'Hole in the road', description: 'Deep hole by the crossing', location: '38.7101,-9.1366', reporter_email: 'ana@example.org', depth_cm: 15,
    photos: [{ file_token: upload.body.file_token, name: 'hole.png', content_type: 'image/png', size: PNG.length }],
  });
  t.equal(sent.status, 201, JSON.stringify(sent.body));
  t.equal(sent.body.hydration.target_model, 'occurrences.Occurrence');
  t.match(sent.body.hydration.object, { reference: /^OC-\d{4}-000001$/, state: 'submitted', latitude: 38.7101, longitude: -9.1366, occurrence_type: type.id });
  t.notOk(JSON.stringify(sent.body).includes('ana@example.org'), 'the anonymous answer holds no reporter data');

  const [stored] = await rows(tp, 'occurrences', 'acme');
  t.match(stored, { source: 'form', title: 'Hole in the road', reporter_email: 'ana@example.org', dynamic_fields: { depth_cm: 15 } });
  t.equal(stored.attachments.length, 1);
  t.match(stored.attachments[0], { name: 'hole.png', content_type: 'image/png', submission_id: sent.body.id });
  const detail = await a.call('GET', `/api/backoffice/occurrences/${stored.id}`, { token: staff });
  t.equal(detail.body.attachments[0].id, sent.body.files[0].id, 'the detail lists the stored file');

  // The same path: the type's policy (reject) refuses a duplicate, its schema a bad dynamic field.
  const duplicate = await submit({ title: 'Hole in the road', description: 'Deep hole by the crossing', location: '38.71011,-9.1366', depth_cm: 9 });
  t.equal(duplicate.status, 409, JSON.stringify(duplicate.body));
  t.equal(duplicate.body.code, 'DUPLICATE_DETECTED');
  const invalid = await submit({ title: 'Another hole', location: '38.7201,-9.1366', depth_cm: 2.5 });
  t.equal(invalid.status, 422);
  t.equal(invalid.body.code, 'HYDRATION_FAILED');
  t.same(invalid.body.errors, [{ path: 'dynamic_fields.depth_cm', message: 'Depth must be an integer' }]);
  t.equal((await rows(tp, 'occurrences', 'acme')).length, 1, 'neither was stored');
  t.equal((await rows(tp, 'forms_submissions', 'acme')).length, 1, 'nor were their submissions');
});

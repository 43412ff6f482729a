// Hydration is atomic and previewable: a target that refuses (before or
// after writing its object) leaves nothing behind — no submission, no
// object, no consumed file, no event; a preview returns the object and
// creates nothing; rehydration is recorded; a redaction is the one change a
// submission gets. Public use cases are rate limited per client address,
// authenticated ones need a user of the tenant. A target registered twice
// stops the boot with one line.
import t from 'tap';
import { createTestDatabase, runCli } from 'agent-platform/sdk/testing';
import { api, eventsOf, formsPlatform, member, PNG, rows } from './helpers.ts';

/** A tiny PDF: allowed as an upload, refused by the asset target as a photo. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** serial → serial_number (the asset target has no standard mapping for it). */
async function bindSerial(a: ReturnType<typeof api>, auth: { token: string }, useCaseId: string) {
  const saved = await a.bindings(auth, useCaseId, [{ source_field_path: 'serial', target_field_path: 'serial_number', transform: 'NONE', transform_params: {} }]);
  if (saved.status !== 200) throw new Error(JSON.stringify(saved.body));
}

const photo = (token: string) => ({ file_token: token, name: 'p', content_type: 'image/png', size: 1 });

t.test('a hydrate failure leaves nothing behind; a preview creates nothing', async (t) => {
  const { tp, acme } = await formsPlatform(t);
  const a = api(tp);
  const auth = { token: acme.token };
  const definition = await a.definition(auth);
  const useCase = await a.useCase(auth, definition.id);
  await bindSerial(a, auth, useCase.id);
  const counts = async () => Object.fromEntries(await Promise.all(['forms_submissions', 'forms_hydrations', 'assets', 'asset_photos'].map(async (table) => [table, (await rows(tp, table, 'acme')).length])));
  const nothing = { forms_submissions: 0, forms_hydrations: 0, assets: 0, asset_photos: 0 };

  // The target refuses after it wrote the asset and a first photo: all of it is rolled back.
  const image = (await a.upload(auth, PNG)).body.file_token;
  const pdf = (await a.upload(auth, PDF, 'scan.pdf')).body.file_token;
  const refused = await a.submit(auth, useCase.id, { title: 'Bench', photos: [photo(image), photo(pdf)] });
  t.equal(refused.status, 422, JSON.stringify(refused.body));
  t.equal(refused.body.code, 'HYDRATION_FAILED');
  t.equal(refused.body.target_model, 'assets.Asset');
  t.same(refused.body.errors, [{ path: 'photos', message: 'application/pdf is not an image' }]);
  t.same(await counts(), nothing, 'no submission, no asset, no photo');
  t.ok((await rows(tp, 'forms_files', 'acme')).every((file) => file.submission_id === null && file.consumed_at === null), 'no file consumed');

  const tooLong = await a.submit(auth, useCase.id, { title: 'x'.repeat(150) });
  t.equal(tooLong.status, 422);
  t.same(tooLong.body.errors, [{ path: 'name', message: 'at most 100 characters' }]);

  // The image token is still good, and the preview does not spend it.
  const previewed = await a.preview(auth, useCase.id, { title: 'Bench 9', serial: 9, photos: [photo(image)] });
  t.equal(previewed.status, 200, JSON.stringify(previewed.body));
  t.equal(previewed.body.preview, true);
  t.match(previewed.body.hydration, { target_model: 'assets.Asset', object: { name: 'Bench 9', serial_number: 9, category: 'bench', photos: [String] } });
  t.same(await counts(), nothing, 'a preview creates nothing');
  const badPreview = await a.preview(auth, useCase.id, { title: 'Bench', photos: [photo(pdf)] });
  t.equal(badPreview.status, 422);
  t.equal(badPreview.body.code, 'HYDRATION_FAILED');
  const [failed] = await eventsOf(tp, acme.token, 'form.hydration_failed');
  t.match(failed.data, { use_case_id: useCase.id, submission_id: null, preview: true, target_model: 'assets.Asset', errors: [{ path: 'photos' }] });

  const kept = await a.submit(auth, useCase.id, { title: 'Bench 9', serial: 9, photos: [photo(image)] });
  t.equal(kept.status, 201, 'the token the failures and the preview left unspent');
  const duplicate = await a.submit(auth, useCase.id, { title: 'Bench 10', serial: 9 });
  t.equal(duplicate.status, 422, 'the target reads the tenant\'s rows in the submission\'s transaction');
  t.same(duplicate.body.errors, [{ path: 'serial_number', message: 'asset 9 is already registered' }]);
  t.same(await counts(), { forms_submissions: 1, forms_hydrations: 1, assets: 1, asset_photos: 1 });
  const events = await tp.request({ url: '/api/admin/triggers/events/recent?type=form.submitted', token: acme.token });
  t.equal(events.body.items.length, 1, 'form.submitted only for the stored submission');
});

t.test('rehydration is recorded; redaction is the one change, and is recorded', async (t) => {
  const { tp, acme } = await formsPlatform(t);
  const a = api(tp);
  const auth = { token: acme.token };
  const definition = await a.definition(auth);
  const useCase = await a.useCase(auth, definition.id);
  await bindSerial(a, auth, useCase.id);
  const image = (await a.upload(auth, PNG, 'face.png')).body.file_token;
  const sent = await a.submit(auth, useCase.id, { title: 'Bench of Ana Silva', serial: 77, photos: [photo(image)] });
  t.equal(sent.status, 201);
  const base = `/api/admin/forms/submissions/${sent.body.id}`;

  const again = await a.call('POST', `${base}/rehydrate`, auth);
  t.equal(again.status, 200);
  t.match(again.body, { attempt: 2, status: 'failed', object_id: null, errors: [{ path: 'serial_number', message: /already registered/ }] },
    'the target refuses a second asset with the same serial; the failure is recorded, not thrown');
  t.equal((await rows(tp, 'assets', 'acme')).length, 1);
  const read = await a.call('GET', base, auth);
  t.match(read.body.hydration, { status: 'failed', attempts: 2, object_id: sent.body.hydration.object_id, history: [{ attempt: 1, status: 'hydrated' }, { attempt: 2, status: 'failed' }] });
  t.equal((await a.call('GET', '/api/admin/forms/submissions?hydration_status=failed', auth)).body.total, 1);
  await eventsOf(tp, acme.token, 'form.hydration_failed');

  const download = await tp.request({ url: `${base}/files/${sent.body.files[0].id}`, token: acme.token });
  t.equal(download.status, 200);
  t.equal(download.headers['content-type'], 'image/png');

  const missing = await a.call('POST', `${base}/redact`, auth, { fields: ['nickname'], reason: 'GDPR request' });
  t.equal(missing.status, 400);
  t.equal(missing.body.code, 'FIELD_NOT_IN_PAYLOAD');
  const redacted = await a.call('POST', `${base}/redact`, auth, { fields: ['title'], reason: 'GDPR request 42' });
  t.equal(redacted.status, 200, JSON.stringify(redacted.body));
  t.equal(redacted.body.payload_json.title, '[redacted]');
  t.equal(redacted.body.payload_json.serial, 77, 'other fields stay');
  t.match(redacted.body.payload_json.photos, [{ name: '[redacted]', size: 0 }]);
  t.match(redacted.body.redactions, [{ redacted_by: 'acme-admin', reason: 'GDPR request 42', fields: ['title'], files: 1 }]);
  t.ok(redacted.body.redacted_at);
  const [file] = await rows(tp, 'forms_files', 'acme');
  t.equal(file.content.length, 0, 'the bytes are gone');
  t.equal(file.name, '[redacted]');
  t.equal((await tp.request({ url: `${base}/files/${sent.body.files[0].id}`, token: acme.token })).body, '', 'the download is empty');
  const [history] = await rows(tp, 'forms_hydrations', 'acme');
  t.equal(history.object, null, 'object snapshots (copies of payload values) are dropped');
  t.equal((await a.call('GET', base, auth)).body.form_version, 1, 'the version and the rest of the record stay');
});

t.test('public use cases are rate limited per address; authenticated ones need a user of the tenant', async (t) => {
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };
  const { tp, acme } = await formsPlatform(t, { services: { clock } });
  const a = api(tp);
  const auth = { token: acme.token };
  const definition = await a.definition(auth);
  const open = await a.useCase(auth, definition.id, { access: 'public' });
  const closed = await a.useCase(auth, definition.id, { access: 'authenticated' });
  const visitor = { tenant: 'acme', headers: { 'x-forwarded-for': '203.0.113.9' } };

  const form = await a.call('GET', `/api/forms/use-cases/${open.id}`, visitor);
  t.equal(form.status, 200);
  t.match(form.body, { id: open.id, access: 'public', form_version: 1, schema: { components: Array } });
  for (let i = 1; i <= 3; i++) t.equal((await a.submit(visitor, open.id, { title: `Anonymous ${i}` })).status, 201, `anonymous submission ${i}`);
  const limited = await a.submit(visitor, open.id, { title: 'Anonymous 4' });
  t.equal(limited.status, 429, 'past 3 a minute (the test manifest)');
  t.equal(limited.body.code, 'RATE_LIMITED');
  t.ok(Number(limited.headers['retry-after']) >= 1, `Retry-After ${limited.headers['retry-after']}`);
  const forged = await a.submit({ tenant: 'acme', headers: { 'x-forwarded-for': '198.51.100.1' } }, open.id, { title: 'Another address?' });
  t.equal(forged.status, 429, 'X-Forwarded-For is not trusted unless FORMS_TRUST_PROXY says so');
  t.equal((await a.submit(auth, open.id, { title: 'Signed in' })).status, 201, 'users of the tenant are not limited');
  t.equal((await rows(tp, 'forms_submissions', 'acme')).filter((row) => row.submitted_by === null).length, 3);
  offsetMs = 21_000; // one token back at 3 a minute
  t.equal((await a.submit(visitor, open.id, { title: 'Anonymous 5' })).status, 201, 'a token refills with time');
  t.equal((await a.submit(visitor, open.id, { title: 'Anonymous 6' })).status, 429);

  offsetMs = 120_000; // the bucket is full again
  const anonymous = await a.submit({ tenant: 'acme' }, closed.id, { title: 'Anonymous' });
  t.equal(anonymous.status, 401);
  t.equal(anonymous.body.code, 'AUTHENTICATION_REQUIRED');
  t.equal((await a.call('GET', `/api/forms/use-cases/${closed.id}`, { tenant: 'acme' })).status, 401);
  const plain = await member(tp, 'acme');
  const byMember = await a.submit({ token: plain }, closed.id, { title: 'By a member' });
  t.equal(byMember.status, 201);
  t.equal(byMember.body.hydration.object.reported_by, 'acme-member');
  t.equal((await a.submit({ token: 'not-a-token', tenant: 'acme' }, open.id, { title: 'x' })).status, 401, 'a bad token is not taken as anonymous');

  t.equal((await a.call('PUT', `/api/admin/forms/use-cases/${open.id}`, auth, { active: false })).status, 200);
  t.equal((await a.submit(auth, open.id, { title: 'Inactive' })).status, 404, 'an inactive use case takes no submissions');
});

t.test('a hydration target registered twice stops the boot with one line', async (t) => {
  const databaseUrl = await createTestDatabase(t, { migrated: true });
  const result = await runCli(['serve'], {
    env: { PLATFORM_MANIFEST: 'plugins/forms/test/fixtures/forms-target-clash.yaml', DATABASE_URL: databaseUrl, PLATFORM_MASTER_KEY: 'a'.repeat(64), ADMIN_TOKEN: 'adm_target_clash', PORT: '0' },
  });
  t.equal(result.code, 1, result.stderr);
  const lines = result.stderr.trim().split('\n');
  t.equal(lines.length, 1, result.stderr);
  t.equal(lines[0], 'error: hydration target "assets.Asset" is registered twice (as "Asset" and as "Another asset")');
});

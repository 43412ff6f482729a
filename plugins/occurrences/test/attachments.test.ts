// Attachments of a public report: a citizen uploads with the
// forms plugin's POST /api/forms/files (anonymous, X-Tenant-ID: a tenant
// with an active occurrence type takes them) and names the file tokens in
// public_submit's `attachments`. The forms plugin checks each token (single
// use, expiry, tenant, uploader) and gives the file to the occurrence in the
// submission's transaction: staff see it in the detail, public answers never,
// and a refused report (409 duplicate, 422) consumes nothing. The forms
// clean-up of expired uploads never deletes a file an occurrence holds.
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';
import { pruneFilesTask } from '../../forms/tasks/forms.prune_files.ts';
import { api, occurrencesPlatform, report, rows, user } from './helpers.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const DAY_MS = 86_400_000; // FORMS_FILE_TOKEN_TTL_SECONDS' default

function upload(tp: TestPlatform, auth: { tenant?: string; token?: string }, filename = 'hole.png') {
  const boundary = `----occ${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return tp.request({ method: 'POST', url: '/api/forms/files', tenant: auth.tenant, token: auth.token, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

async function fileToken(tp: TestPlatform, tenant: string) {
  const uploaded = await upload(tp, { tenant });
  if (uploaded.status !== 201) throw new Error(`upload: ${JSON.stringify(uploaded.body)}`);
  return uploaded.body.file_token as string;
}

t.test('a citizen uploads, reports with the token, and staff see the attachment', async (t) => {
  const { tp, admin, staff } = await occurrencesPlatform(t);
  const a = api(tp);

  const early = await upload(tp, { tenant: 'acme' });
  t.equal(early.status, 401, 'no active type yet: the tenant takes no anonymous uploads');
  const type = await a.type(admin, { duplicate_policy: 'allow' });

  const uploaded = await upload(tp, { tenant: 'acme' });
  t.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
  t.match(uploaded.body, { file_token: /^ft_[0-9a-f]{64}$/, name: 'hole.png', content_type: 'image/png', size: PNG.length });

  for (const path of ['/api/occurrences/public_submit', '/api/occurrences/public_submit/']) {
    const token = path.endsWith('/') ? await fileToken(tp, 'acme') : uploaded.body.file_token;
    const sent = await a.call('POST', path, { tenant: 'acme' }, report(type.id, { attachments: [token] }));
    t.equal(sent.status, 201, `${path}: ${JSON.stringify(sent.body)}`);
    t.notOk(JSON.stringify(sent.body).includes('hole.png'), 'the public answer lists no files');

    const detail = await a.call('GET', `/api/backoffice/occurrences/${sent.body.id}/`, { token: staff });
    t.equal(detail.status, 200);
    t.equal(detail.body.attachments.length, 1);
    t.match(detail.body.attachments[0], { id: String, name: 'hole.png', content_type: 'image/png', size: PNG.length });
    const [file] = (await rows(tp, 'forms_files', 'acme')).filter((row) => row.id === detail.body.attachments[0].id);
    t.match(file, { owner_plugin: 'occurrences', owner_id: String(sent.body.id), submission_id: null, consumed_at: Date }, 'the file now belongs to the occurrence');
  }

  const twice = await a.submit('acme', report(type.id, { title: 'Another hole', attachments: [uploaded.body.file_token] }));
  t.equal(twice.status, 422);
  t.equal(twice.body.code, 'FILE_TOKEN_INVALID');
  t.same(twice.body.errors, [{ path: 'attachments[0]', message: 'has already been used' }]);

  const fresh = await fileToken(tp, 'acme');
  const doubled = await a.submit('acme', report(type.id, { title: 'Doubled', attachments: [fresh, fresh] }));
  t.same(doubled.body.errors, [{ path: 'attachments[1]', message: 'has already been used' }], 'one token twice in one report');
  const forged = await a.submit('acme', report(type.id, { title: 'Forged', attachments: ['ft_0123'] }));
  t.equal(forged.status, 422);
  t.match(forged.body.errors, [{ path: 'attachments[0]', message: /is not a file token/ }]);

  const member = await user(tp, 'acme', 'acme-uploader', []);
  const members = await upload(tp, { token: member });
  t.equal(members.status, 201);
  const notTheirs = await a.submit('acme', report(type.id, { title: 'Not mine', attachments: [members.body.file_token] }));
  t.same(notTheirs.body.errors, [{ path: 'attachments[0]', message: 'was uploaded by someone else' }], 'an anonymous report cannot spend a user\'s token');

  t.equal((await rows(tp, 'occurrences', 'acme')).length, 2, 'no refused report was stored');
  const unused = (await rows(tp, 'forms_files', 'acme')).filter((row) => row.consumed_at === null);
  t.equal(unused.length, 2, 'refused reports consumed nothing (the doubled one and the member\'s are unused)');
  t.ok(unused.some((row) => row.uploaded_by === 'anonymous'));
});

t.test('another tenant\'s token and an expired token are 422s; a rejected duplicate consumes nothing', async (t) => {
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };
  const { tp, admin, staff } = await occurrencesPlatform(t, { services: { clock } });
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'reject' });
  const other = await tenantWithAdmin(tp, 'other');
  await a.type(other.token, { duplicate_policy: 'allow' });

  const foreign = await fileToken(tp, 'other');
  const fromOther = await a.submit('acme', report(type.id, { attachments: [foreign] }));
  t.equal(fromOther.status, 422);
  t.same(fromOther.body.errors, [{ path: 'attachments[0]', message: 'is not a file token of this tenant' }]);
  t.equal((await rows(tp, 'occurrences', 'acme')).length, 0);

  const first = await a.submit('acme', report(type.id));
  t.equal(first.status, 201, JSON.stringify(first.body));
  const token = await fileToken(tp, 'acme');
  const duplicate = await a.submit('acme', report(type.id, { attachments: [token] }));
  t.equal(duplicate.status, 409, 'the same report again: rejected as a duplicate');
  t.equal(duplicate.body.code, 'DUPLICATE_DETECTED');
  t.equal((await rows(tp, 'forms_files', 'acme')).filter((row) => row.consumed_at !== null).length, 0, 'the rejected report consumed nothing');
  const elsewhere = await a.submit('acme', report(type.id, { latitude: 38.75, longitude: -9.2, title: 'Broken kerb far away', attachments: [token] }));
  t.equal(elsewhere.status, 201, `the token is still usable: ${JSON.stringify(elsewhere.body)}`);
  const detail = await a.call('GET', `/api/backoffice/occurrences/${elsewhere.body.id}/`, { token: staff });
  t.equal(detail.body.attachments.length, 1);

  const late = await fileToken(tp, 'acme');
  offsetMs = DAY_MS + 1000;
  const expired = await a.submit('acme', report(type.id, { latitude: 38.8, longitude: -9.3, title: 'Late report', attachments: [late] }));
  t.equal(expired.status, 422);
  t.same(expired.body.errors, [{ path: 'attachments[0]', message: 'has expired' }]);
  t.equal((await rows(tp, 'occurrences', 'acme')).length, 2, 'the refused reports were not stored');

  const { pruned } = await pruneFilesTask(tp.platform.core)();
  t.equal(pruned, 2, 'the hourly clean-up deletes the expired unused uploads (this tenant\'s late one, the other tenant\'s)');
  t.same((await rows(tp, 'forms_files', 'acme')).map((row) => row.owner_id), [String(elsewhere.body.id)], 'and keeps the occurrence\'s file');
});

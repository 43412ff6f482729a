// Uploads for forms: a single-use token bound to its tenant and
// uploader, consumed in the submission's transaction. A token used twice,
// expired (the clock is moved), from another tenant or another uploader is a
// 422 naming the field; size and type limits give 413 and 415; anonymous
// uploads need an active public use case of the tenant.
import t from 'tap';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import { api, formsPlatform, member, PNG, rows } from './helpers.ts';

const photo = (token: string) => ({ file_token: token, name: 'p.png', content_type: 'image/png', size: 1 });

t.test('a file token is single use, expires, and belongs to its tenant and uploader', async (t) => {
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };
  const { tp, acme } = await formsPlatform(t, { services: { clock } });
  const other = await tenantWithAdmin(tp, 'other');
  const a = api(tp);
  const auth = { token: acme.token };
  const definition = await a.definition(auth);
  const useCase = await a.useCase(auth, definition.id);

  const upload = await a.upload(auth, PNG);
  t.equal(upload.status, 201);
  const token = upload.body.file_token as string;
  t.equal((await a.submit(auth, useCase.id, { title: 'First', photos: [photo(token)] })).status, 201);
  const twice = await a.submit(auth, useCase.id, { title: 'Second', photos: [photo(token)] });
  t.equal(twice.status, 422);
  t.equal(twice.body.code, 'FILE_TOKEN_INVALID');
  t.same(twice.body.errors, [{ path: 'photos[0].file_token', message: 'has already been used' }]);

  const both = (await a.upload(auth, PNG)).body.file_token;
  const sameTwice = await a.submit(auth, useCase.id, { title: 'Twice in one payload', photos: [photo(both), photo(both)] });
  t.equal(sameTwice.status, 422);
  t.same(sameTwice.body.errors, [{ path: 'photos[1].file_token', message: 'has already been used' }]);

  const foreign = (await a.upload({ token: other.token }, PNG)).body.file_token;
  const fromOther = await a.submit(auth, useCase.id, { title: 'Foreign', photos: [photo(foreign)] });
  t.equal(fromOther.status, 422);
  t.same(fromOther.body.errors, [{ path: 'photos[0].file_token', message: 'is not a file token of this tenant' }]);

  const memberToken = await member(tp, 'acme');
  const members = (await a.upload({ token: memberToken }, PNG)).body.file_token;
  const someoneElse = await a.submit(auth, useCase.id, { title: 'Not mine', photos: [photo(members)] });
  t.equal(someoneElse.status, 422);
  t.same(someoneElse.body.errors, [{ path: 'photos[0].file_token', message: 'was uploaded by someone else' }]);
  const anonymous = await a.submit({ tenant: 'acme' }, useCase.id, { title: 'Anonymous', photos: [photo(members)] });
  t.same(anonymous.body.errors, [{ path: 'photos[0].file_token', message: 'was uploaded by someone else' }], 'an anonymous visitor cannot spend a user\'s token');

  const forged = await a.submit(auth, useCase.id, { title: 'Forged', photos: [photo('ft_0123')] });
  t.match(forged.body.errors, [{ path: 'photos[0].file_token', message: /is not a file token/ }]);

  const late = (await a.upload(auth, PNG)).body.file_token;
  offsetMs = 601_000; // the test manifest's fileTokenTtlSeconds is 600
  const expired = await a.submit(auth, useCase.id, { title: 'Late', photos: [photo(late)] });
  t.equal(expired.status, 422);
  t.same(expired.body.errors, [{ path: 'photos[0].file_token', message: 'has expired' }]);
  offsetMs = 0;
  t.equal((await a.submit(auth, useCase.id, { title: 'In time', photos: [photo(late)] })).status, 201, 'the same token before its expiry');

  const unused = (await rows(tp, 'forms_files', 'acme')).filter((file) => file.submission_id === null);
  t.equal(unused.length, 2, 'refused submissions consumed no file (the member\'s and the doubled one are still unused)');
  t.equal((await rows(tp, 'forms_submissions', 'acme')).length, 2);
});

t.test('upload limits: size (413), type from the bytes (415), anonymous only for a tenant with a public form', async (t) => {
  const { tp, acme } = await formsPlatform(t);
  const a = api(tp);
  const auth = { token: acme.token };

  const big = await a.upload(auth, Buffer.concat([PNG, Buffer.alloc(5000)]));
  t.equal(big.status, 413, 'past maxFileBytes (4096 in the test manifest)');
  t.equal(big.body.code, 'FILE_TOO_LARGE');
  const huge = await a.upload(auth, Buffer.alloc(200_000, 1));
  t.equal(huge.status, 413, 'far past it too, before the bytes are read');
  const binary = await a.upload(auth, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]), 'photo.png');
  t.equal(binary.status, 415, 'an ELF named .png');
  t.equal(binary.body.code, 'UNSUPPORTED_FILE_TYPE');
  const text = await a.upload(auth, Buffer.from('a note'), 'note.txt');
  t.equal(text.status, 201);
  t.equal(text.body.content_type, 'text/plain');
  t.equal((await tp.request({ method: 'POST', url: '/api/forms/files', token: acme.token, payload: { file: 'x' } })).status, 415, 'not multipart');

  const noPublicForm = await a.upload({ tenant: 'acme' }, PNG);
  t.equal(noPublicForm.status, 401, 'anonymous uploads need an active public use case');
  t.equal(noPublicForm.body.code, 'AUTHENTICATION_REQUIRED');
  const definition = await a.definition(auth);
  await a.useCase(auth, definition.id, { access: 'public' });
  const anonymous = await a.upload({ tenant: 'acme' }, PNG);
  t.equal(anonymous.status, 201);
  t.equal((await a.upload({ tenant: 'nobody' }, PNG)).status, 404, 'an unknown tenant');
  t.equal((await rows(tp, 'forms_files', 'acme')).length, 2, 'refused uploads store nothing');
  t.equal((await a.upload({ tenant: 'acme' }, PNG)).status, 429, 'anonymous uploads share the public rate limit (3 a minute in the test manifest)');
});

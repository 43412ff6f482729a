// Anonymous uploads cannot fill the disk or the memory: a rate-limited,
// undeclared, too large or over-quota upload is refused on its headers before
// any body byte is read (a raw socket sends the head only, with Expect:
// 100-continue, so the server asking for the body shows it would have read
// it); the quota of unused anonymous bytes is checked again when the file is
// stored; unused anonymous files expire after their own lifetime and the
// clean-up removes them; a body past the size limit is refused as it streams;
// bodies are read a few at a time.
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { pruneFilesTask } from '../tasks/forms.prune_files.ts';
import type { TestPlatform } from 'agent-platform/sdk/testing';
import { api, formsPlatform, PNG, rows } from './helpers.ts';
import { multipart, RawRequest } from './raw-http.ts';

const MB = 1024 * 1024;

function manifest(forms: Record<string, unknown>) {
  return {
    plugins: [
      { plugin: './plugins/tenancy' }, { plugin: './plugins/workflows' }, { plugin: './plugins/events' },
      { plugin: './plugins/forms', options: forms }, { plugin: './test/fixtures/asset-target' },
    ],
  };
}

/** A PNG of exactly `size` bytes (its signature, then padding): detected as image/png. */
const pngOf = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]);

const port = (tp: TestPlatform) => tp.platform.server.info.port as number;

/** The head of an upload to /api/forms/files, its body left unsent. */
function uploadHead(tp: TestPlatform, headers: Record<string, string>) {
  return RawRequest.open(port(tp), 'POST /api/forms/files HTTP/1.1', headers);
}

t.test('an anonymous upload is refused on its headers before its body is read: 411, 413, 429; submissions are rate limited before theirs', async (t) => {
  const { tp, acme } = await formsPlatform(t, { listen: true, manifest: manifest({ publicRatePerMinute: 3, maxFileBytes: 10 * MB }) });
  const a = api(tp);
  const definition = await a.definition({ token: acme.token });
  const useCase = await a.useCase({ token: acme.token }, definition.id, { access: 'public' });
  const anonymous = { 'X-Tenant-ID': 'acme', 'Content-Type': 'multipart/form-data; boundary=x', Expect: '100-continue' };

  const chunked = await uploadHead(tp, { ...anonymous, 'Transfer-Encoding': 'chunked' });
  const undeclared = await chunked.response();
  t.equal(undeclared.status, 411, 'no Content-Length: refused, the body never asked for');
  t.equal(undeclared.body.code, 'LENGTH_REQUIRED');
  chunked.close();

  const huge = await uploadHead(tp, { ...anonymous, 'Content-Length': String(20 * MB) });
  const tooLarge = await huge.response();
  t.equal(tooLarge.status, 413, 'a declared length past the limit: refused on the header');
  t.equal(tooLarge.body.code, 'FILE_TOO_LARGE');
  huge.close();

  t.equal((await a.upload({ tenant: 'acme' }, PNG)).status, 201, 'the third request of the minute is served');

  const limited = await uploadHead(tp, { ...anonymous, 'Content-Length': String(10 * MB) });
  const refused = await limited.response();
  t.equal(refused.status, 429, 'the fourth: 429 is the first answer, the 10 MB body was never asked for nor sent');
  t.equal(refused.body.code, 'RATE_LIMITED');
  t.ok(Number(refused.headers['retry-after']) >= 1, 'with Retry-After');
  limited.close();

  const submission = await RawRequest.open(port(tp), `POST /api/forms/use-cases/${useCase.id}/submissions HTTP/1.1`, {
    'X-Tenant-ID': 'acme', 'Content-Type': 'application/json', 'Content-Length': '500000', Expect: '100-continue',
  });
  const submitted = await submission.response();
  t.equal(submitted.status, 429, 'an anonymous submission is rate limited before its body is read too');
  submission.close();

  const signedIn = await a.upload({ token: acme.token }, PNG);
  t.equal(signedIn.status, 201, 'signed-in users are not rate limited here');
  t.equal((await rows(tp, 'forms_files', 'acme')).length, 2, 'only the two accepted uploads are stored');
});

t.test('the anonymous quota: checked on the declared length before the body, and again atomically when the file is stored', async (t) => {
  const { tp, acme } = await formsPlatform(t, { listen: true, manifest: manifest({ publicRatePerMinute: 100, maxFileBytes: 4096, anonymousStorageBytes: 2000 }) });
  const a = api(tp);
  const definition = await a.definition({ token: acme.token });
  const useCase = await a.useCase({ token: acme.token }, definition.id, { access: 'public' });
  const file = pngOf(1200);

  const first = await a.upload({ tenant: 'acme' }, file);
  t.equal(first.status, 201, '1 200 of 2 000 bytes');

  const { body, contentType } = multipart(file);
  const early = await uploadHead(tp, { 'X-Tenant-ID': 'acme', 'Content-Type': contentType, 'Content-Length': String(body.length), Expect: '100-continue' });
  const full = await early.response();
  t.equal(full.status, 413, 'another 1 200 would pass the quota: refused before its body is asked for');
  t.equal(full.body.code, 'ANONYMOUS_QUOTA_EXCEEDED');
  early.close();
  t.equal((await a.upload({ token: acme.token }, file)).status, 201, 'a signed-in user\'s upload is not anonymous: not counted, not refused');

  const used = await a.submit({ tenant: 'acme' }, useCase.id, {
    title: 'Lamp post', photos: [{ file_token: first.body.file_token, name: 'p.png', content_type: 'image/png', size: 1200 }],
  });
  t.equal(used.status, 201, 'a submission consumes the first file');
  const late = await uploadHead(tp, { 'X-Tenant-ID': 'acme', 'Content-Type': contentType, 'Content-Length': String(body.length), Expect: '100-continue' });
  t.equal((await late.response()).status, 100, 'a consumed file no longer counts: the next upload passes the headers check');

  const other = await a.upload({ tenant: 'acme' }, file);
  t.equal(other.status, 201, 'meanwhile another upload takes the room');
  await late.write(body);
  const raced = await late.response();
  t.equal(raced.status, 413, 'the upload admitted on its headers is refused when stored: the room is gone');
  t.equal(raced.body.code, 'ANONYMOUS_QUOTA_EXCEEDED');
  late.close();

  const files = await rows(tp, 'forms_files', 'acme');
  t.equal(files.length, 3, 'the refused uploads stored nothing');
  t.equal(files.filter((row) => row.uploaded_by === 'anonymous' && row.consumed_at === null).reduce((sum, row) => sum + row.size, 0), 1200);
});

t.test('unused anonymous uploads expire after FORMS_ANONYMOUS_FILE_TTL_SECONDS and the clean-up removes them', async (t) => {
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };
  const { tp, acme } = await formsPlatform(t, {
    services: { clock }, manifest: manifest({ publicRatePerMinute: 100, maxFileBytes: 4096, fileTokenTtlSeconds: 600, anonymousFileTtlSeconds: 60 }),
  });
  const a = api(tp);
  const definition = await a.definition({ token: acme.token });
  const useCase = await a.useCase({ token: acme.token }, definition.id, { access: 'public' });

  const anonymous = await a.upload({ tenant: 'acme' }, PNG);
  const signedIn = await a.upload({ token: acme.token }, PNG);
  const lifetime = (uploaded: typeof anonymous) => Math.round((new Date(uploaded.body.expires_at).getTime() - clock.now().getTime()) / 1000);
  t.equal(lifetime(anonymous), 60, 'an anonymous file: the anonymous lifetime');
  t.equal(lifetime(signedIn), 600, 'a user\'s file: the token lifetime');

  offsetMs = 61_000;
  const late = await a.submit({ tenant: 'acme' }, useCase.id, { title: 'Late', photos: [{ file_token: anonymous.body.file_token, name: 'p.png', content_type: 'image/png', size: 1 }] });
  t.same(late.body.errors, [{ path: 'photos[0].file_token', message: 'has expired' }]);
  const { pruned } = await pruneFilesTask(tp.platform.core)();
  t.equal(pruned, 1, 'the clean-up removes the expired anonymous file');
  t.same((await rows(tp, 'forms_files', 'acme')).map((row) => row.uploaded_by), [`user:${acme.sub}`], 'and keeps the user\'s, still valid');
});

t.test('a body past the size limit is refused while it streams; bodies are read a few at a time', async (t) => {
  const { tp, acme } = await formsPlatform(t, { listen: true, manifest: manifest({ maxFileBytes: 4096, maxConcurrentUploads: 1 }) });
  const a = api(tp);
  const signedIn = { Authorization: `Bearer ${acme.token}`, 'X-Tenant-ID': 'acme' };

  // Chunked: no length to refuse on, so the limit is counted on the bytes as they arrive.
  const { head, tail, contentType } = multipart(PNG);
  const streamed = await uploadHead(tp, { ...signedIn, 'Content-Type': contentType, 'Transfer-Encoding': 'chunked' });
  const chunked = (bytes: Buffer) => streamed.write(Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]));
  await chunked(Buffer.concat([head, PNG]));
  for (let i = 0; i < 16; i++) await chunked(Buffer.alloc(64 * 1024));
  await chunked(tail);
  await streamed.write('0\r\n\r\n');
  const tooLarge = await streamed.response();
  t.equal(tooLarge.status, 413, 'a 1 MB chunked body past 4 096 bytes plus the envelope');
  t.equal(tooLarge.body.code, 'FILE_TOO_LARGE');
  streamed.close();
  t.equal((await rows(tp, 'forms_files', 'acme')).length, 0, 'nothing stored');

  const { body, contentType: type } = multipart(PNG);
  const slotHead = { ...signedIn, 'Content-Type': type, 'Content-Length': String(body.length), Expect: '100-continue' };
  const holder = await uploadHead(tp, slotHead);
  t.equal((await holder.response()).status, 100, 'the first upload holds the only read slot');
  const gone = await uploadHead(tp, slotHead);
  await sleep(300);
  gone.close(); // it waited for the slot, then its client went away: its place in the queue goes with it
  const order: string[] = [];
  const waiting = a.upload({ token: acme.token }, PNG).then((response) => {
    order.push('second');
    return response;
  });
  await sleep(300);
  t.same(order, [], 'a second upload waits for the slot');
  await holder.write(body);
  const first = await holder.response();
  order.push('first');
  holder.close();
  t.equal(first.status, 201);
  const within = <T>(promise: Promise<T>) => Promise.race([promise, sleep(20_000).then(() => ({ status: 'still waiting' }))]);
  t.equal((await within(waiting)).status, 201, 'and is read once the first is answered');
  t.same(order, ['first', 'second']);
  t.equal((await within(a.upload({ token: acme.token }, PNG))).status, 201, 'the slot is free again: none was lost to the client that went away');
});

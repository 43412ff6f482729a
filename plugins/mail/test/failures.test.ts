// When e-mail cannot go out: an unreachable SMTP server makes a message
// `failed`, retried with backoff, then `dead`, listed for operators (REST and
// CLI) with an error that holds no password, and retried by them once the
// server is back; a message whose job was lost is found by the sweep; without
// SMTP_URL messages are `held`, listed, and not retried until a transport exists.
import t from 'tap';
import { createServer } from 'node:net';
import { runCli, startTestPlatform, tenantWithAdmin, until, type TestPlatform } from 'agent-platform/sdk/testing';
import type {} from '../api.ts';
import { deliverKey } from '../tasks/mail.deliver.ts';
import { SWEEP_TASK } from '../tasks/mail.sweep.ts';
import { createSmtpTransport, parseSmtpUrl } from '../transport/smtp.ts';
import { startReceiver } from './receiver.ts';

const MANIFEST = 'plugins/mail/test/fixtures/manifest.yaml';
const PASSWORD = 'down-Pa55word-7';

/** A loopback port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const send = (tp: TestPlatform, to: string, originId: string) => tp.platform.core.withTenant('acme', (trx) =>
  tp.platform.server.plugins.mail.api.send(trx, 'acme', { to, subject: `About ${originId}`, text: 'Hello', origin: 'tests.failures', originId }));

t.test('an unreachable server: retries with backoff, dead, listed, retried by an operator once it is back', async (t) => {
  const port = await freePort();
  const smtpUrl = `smtp://mailer:${PASSWORD}@127.0.0.1:${port}`;
  const tp = await startTestPlatform(t, { manifest: MANIFEST, captureLogs: true, env: { SMTP_URL: smtpUrl } });
  await tp.platform.start();
  const acme = await tenantWithAdmin(tp, 'acme');

  const written = await send(tp, 'ana@example.org', 'unreachable');
  t.equal(written.state, 'pending');
  const dead = await until(async () => {
    const listed = await tp.request({ url: '/api/admin/outbox?state=dead', token: acme.token });
    return listed.body.items[0];
  }, 'the message dead after its attempts');
  t.match(dead, { id: written.id, state: 'dead', attempts: 3, next_attempt_at: null, sent_at: null });
  t.match(dead.last_error, /ECONNREFUSED|ECONNECTION/);
  t.notOk(dead.last_error.includes(PASSWORD), 'the error holds no password');
  const failures = tp.logs.filter((line) => line.includes('mail: delivery attempt failed'));
  t.equal(failures.length, 3, 'each attempt failed once and was logged');
  t.notOk(tp.logs.join('\n').includes(PASSWORD), 'no log line holds the password');
  const events = (await tp.request({ url: '/api/admin/triggers/events/recent?type=mail.dead', token: acme.token })).body.items;
  t.match(events, [{ type: 'mail.dead', data: { message_id: written.id, origin: 'tests.failures', attempts: 3 } }]);

  const cliEnv = { env: { SMTP_URL: smtpUrl }, platform: tp };
  const listed = await runCli(['outbox', 'list', '--tenant', 'acme', '--state', 'dead', '--json'], cliEnv);
  t.equal(listed.code, 0, listed.stderr);
  t.match(listed.json.items, [{ id: written.id, recipient: 'ana@example.org', state: 'dead', attempts: 3 }]);
  t.notOk(listed.stdout.includes(PASSWORD) || listed.stderr.includes(PASSWORD));
  const human = await runCli(['outbox', 'list', '--tenant', 'acme'], cliEnv);
  t.match(human.stdout, /dead/);

  const receiver = await startReceiver({ user: 'mailer', pass: PASSWORD }, port);
  t.teardown(() => receiver.close());
  const retried = await runCli(['outbox', 'retry', String(written.id), '--tenant', 'acme', '--json'], cliEnv);
  t.equal(retried.code, 0, retried.stderr);
  t.match(retried.json, { id: written.id, state: 'pending', attempts: 0 });
  const arrived = await until(async () => receiver.mails.find((m) => m.to.includes('ana@example.org')), 'the retried message');
  t.equal(arrived.subject, 'About unreachable');
  const sent = await until(async () => {
    const items = (await tp.request({ url: '/api/admin/outbox?state=sent', token: acme.token })).body.items;
    return items.length > 0 && items;
  }, 'the retried message marked sent');
  t.match(sent, [{ id: written.id, state: 'sent', attempts: 1, last_error: null }], 'sent at its first attempt after the retry');
  const again = await runCli(['outbox', 'retry', String(written.id), '--tenant', 'acme'], cliEnv);
  t.not(again.code, 0, 'a sent message is not retried');
  t.match(again.stderr, /only held or dead messages are retried/);

  // A job lost between the commit and the attempt (its process gone): the sweep finds the pending message.
  const lost = await tp.platform.core.withTenant('acme', async (trx) => {
    const row = await tp.platform.server.plugins.mail.api.send(trx, 'acme', { to: 'lost@example.org', subject: 'Lost job', text: 'Found', origin: 'tests.failures', originId: 'lost' });
    await tp.platform.core.jobs.removeJob(deliverKey(row.id), trx);
    return row;
  });
  await tp.platform.core.jobs.enqueueLong(SWEEP_TASK, {});
  await until(async () => receiver.mails.find((m) => m.to.includes('lost@example.org')), 'the swept message');
  await until(async () => {
    const swept = (await tp.request({ url: '/api/admin/outbox?origin=tests.failures&state=sent', token: acme.token })).body.items;
    return swept.some((m: { id: number }) => m.id === lost.id);
  }, 'the swept message marked sent');
  t.equal(receiver.mails.filter((m) => m.to.includes('lost@example.org')).length, 1, 'once');
});

t.test('without SMTP_URL messages are held, listed and not retried', async (t) => {
  const tp = await startTestPlatform(t, { manifest: MANIFEST, env: { SMTP_URL: '' } });
  await tp.platform.start();
  const acme = await tenantWithAdmin(tp, 'acme');
  const written = await send(tp, 'ana@example.org', 'held');
  t.match(written, { state: 'held', attempts: 0, next_attempt_at: null });

  const listed = (await tp.request({ url: '/api/admin/outbox?state=held', token: acme.token })).body;
  t.match(listed, { total: 1, configured: false, items: [{ id: written.id, state: 'held' }] });
  const retried = await tp.request({ method: 'POST', url: `/api/admin/outbox/${written.id}/retry`, token: acme.token });
  t.same([retried.status, retried.body.code], [409, 'MAIL_NOT_CONFIGURED']);
  const cli = await runCli(['outbox', 'list', '--tenant', 'acme', '--state', 'held', '--json'], { platform: tp, env: { SMTP_URL: '' } });
  t.equal(cli.code, 0, cli.stderr);
  t.match(cli.json.items, [{ id: written.id, state: 'held' }]);
  const after = (await tp.request({ url: '/api/admin/outbox', token: acme.token })).body.items;
  t.match(after, [{ id: written.id, state: 'held', attempts: 0 }], 'nothing tried to send it');
});

t.test('SMTP_URL: a malformed one is refused, and a refused login reports no password', async (t) => {
  t.throws(() => parseSmtpUrl(`http://mailer:${PASSWORD}@127.0.0.1:25`), /SMTP_URL must start with smtp:\/\/ or smtps:\/\//);
  t.throws(() => parseSmtpUrl(`mailer:${PASSWORD}`), /SMTP_URL must start with|not a URL/);
  for (const bad of [`http://mailer:${PASSWORD}@h`, 'not a url', `smtp://mailer:${PASSWORD}%zz@h`]) {
    try {
      parseSmtpUrl(bad);
      t.fail(`${bad} accepted`);
    } catch (err) {
      t.notOk((err as Error).message.includes(PASSWORD), 'the message never shows the password');
    }
  }
  t.match(parseSmtpUrl('smtps://u:p%40ss@mail.example'), { endpoint: 'smtps://mail.example', host: 'mail.example', port: 465, secure: true, user: 'u', pass: 'p@ss' });
  t.match(parseSmtpUrl('smtp://mail.example'), { port: 587, secure: false, user: undefined });

  const receiver = await startReceiver({ user: 'mailer', pass: 'the-right-one' });
  t.teardown(() => receiver.close());
  const transport = createSmtpTransport(`smtp://mailer:${encodeURIComponent(PASSWORD)}@127.0.0.1:${receiver.port}`, 5);
  t.teardown(() => transport.close());
  const refused = await transport.send({ from: 'a@example.org', to: 'b@example.org', subject: 's', text: 't' }).then(() => undefined, (err: Error) => err);
  t.ok(refused, 'a wrong password is refused');
  t.match(refused!.message, /EAUTH/);
  for (const form of [PASSWORD, encodeURIComponent(PASSWORD), Buffer.from(PASSWORD).toString('base64')]) t.notOk(refused!.message.includes(form));
  t.equal(receiver.mails.length, 0);
});

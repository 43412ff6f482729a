// E-mail that reaches a mailbox, on a real SMTP receiver on loopback: an
// occurrence's email template applied arrives at the reporter's address; a
// new approval case arrives at each approver whose subject is an address,
// with that approver's one-time link, which then decides the case; a message
// written in a transaction that rolls back is never written nor sent; the
// outbox is the tenant's own and admins' only; the SMTP password appears in
// no response, no outbox row and no log line.
import t from 'tap';
import { startTestPlatform, tenantWithAdmin, until, type TestPlatform } from 'agent-platform/sdk/testing';
import type {} from '../api.ts';
import { startReceiver } from './receiver.ts';

const PASSWORD = 'Sm7p-s3cret-Pa55!';

async function user(tp: TestPlatform, tenant: string, sub: string, roles: string[]) {
  const created = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub, display_name: sub, organizations: [tenant], roles } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return (await tp.request({ method: 'POST', url: `/api/admin/users/${encodeURIComponent(sub)}/tokens`, token: tp.adminToken })).body.access_token as string;
}

t.test('templates and approval cases send e-mail through the outbox; rollbacks send nothing; tenants and secrets stay apart', async (t) => {
  const receiver = await startReceiver({ user: 'mailer', pass: PASSWORD });
  t.teardown(() => receiver.close());
  const tp = await startTestPlatform(t, {
    captureLogs: true,
    env: { SMTP_URL: `smtp://mailer:${encodeURIComponent(PASSWORD)}@127.0.0.1:${receiver.port}` },
    manifest: {
      plugins: [
        { plugin: './plugins/tenancy' },
        { plugin: './plugins/workflows' },
        { plugin: './plugins/events' },
        { plugin: './plugins/forms', options: { publicRatePerMinute: 1000 } },
        { plugin: './plugins/mail', options: { from: 'City Services <city@example.org>', retryBaseSeconds: 1 } },
        { plugin: './plugins/occurrences', options: { publicRatePerMinute: 1000, publicAddressRatePerMinute: 10_000, trackingUrl: 'https://city.example/track/{reference}' } },
        { plugin: './plugins/approvals', options: { publicUrl: 'https://agents.example' } },
      ],
    },
  });
  await tp.platform.start();
  const acme = await tenantWithAdmin(tp, 'acme');
  const other = await tenantWithAdmin(tp, 'other');
  const member = await user(tp, 'acme', 'acme-member', []);
  const responses: unknown[] = [];
  const call = async (method: string, url: string, token: string, payload?: unknown) => {
    const response = await tp.request({ method, url, token, payload });
    responses.push(response.body);
    return response;
  };

  await t.test('an email template applied arrives at the reporter with its subject and body', async (t) => {
    const type = await call('POST', '/api/backoffice/occurrence-types/', acme.token, {
      name: 'Pothole', code: 'pothole', duplicate_policy: 'allow',
      form_schema: { version: 'v0', dynamic_fields: [] },
    });
    t.equal(type.status, 201, JSON.stringify(type.body));
    const submitted = await tp.request({
      method: 'POST', url: '/api/occurrences/public_submit/', tenant: 'acme',
      payload: {
        title: 'Deep pothole', description: 'A deep pothole in the right lane', occurrence_type: type.body.id,
        latitude: 38.7101, longitude: -9.1366, reporter_name: 'Ana Silva', reporter_email: 'ana@example.org', dynamic_fields: {},
      },
    });
    t.equal(submitted.status, 201, JSON.stringify(submitted.body));
    const template = await call('POST', '/api/backoffice/templates', acme.token, {
      name: 'Acknowledgement', channel: 'email', subject: 'We received {{reference}}',
      body: 'Dear {{reporter_name}}, follow your report at {{tracking_link}}',
    });
    t.equal(template.status, 201, JSON.stringify(template.body));
    const applied = await call('POST', '/api/backoffice/templates/apply', acme.token, { occurrence_id: submitted.body.id, template_id: template.body.id });
    t.equal(applied.status, 201, JSON.stringify(applied.body));

    const mail = await until(async () => receiver.mails.find((m) => m.to.includes('ana@example.org')), 'the reporter\'s e-mail');
    const reference = submitted.body.reference;
    t.equal(mail.subject, `We received ${reference}`);
    t.equal(mail.text, `Dear Ana Silva, follow your report at https://city.example/track/${reference}`);
    t.equal(mail.from, 'city@example.org');
    t.match(mail.headers.from, /City Services <city@example\.org>/);
    t.same(receiver.logins.filter((login) => login !== 'mailer'), [], 'it logs in with the URL\'s user');

    const sent = await until(async () => {
      const listed = await call('GET', '/api/admin/outbox?state=sent', acme.token);
      return listed.body.items.length === 1 && listed.body;
    }, 'the message marked sent');
    t.match(sent.items[0], {
      recipient: 'ana@example.org', subject: `We received ${reference}`, state: 'sent', attempts: 1, last_error: null,
      origin: 'occurrences.message', origin_id: String(applied.body.id), next_attempt_at: null,
    });
    t.ok(sent.items[0].sent_at);
    t.equal(sent.configured, true);
  });

  await t.test('a new approval case e-mails approvers whose subject is an address, with their own working link', async (t) => {
    await user(tp, 'acme', 'boss@example.org', ['approver']);
    await user(tp, 'acme', 'no-address', ['approver']);
    const opened = await call('POST', '/api/approvals', acme.token, {
      title: 'Refund 120 EUR', description: 'Customer 42 asks for a refund', approvers: { roles: ['approver'] },
    });
    t.equal(opened.status, 201, JSON.stringify(opened.body));
    const mail = await until(async () => receiver.mails.find((m) => m.to.includes('boss@example.org')), 'the approver\'s e-mail');
    t.equal(mail.subject, 'Approval requested: Refund 120 EUR');
    t.match(mail.text, /acme-admin asks for your decision on "Refund 120 EUR"/);
    t.match(mail.text, /Customer 42 asks for a refund/);
    const approve = /Approve: (\S+)/.exec(mail.text)?.[1];
    t.ok(approve?.startsWith('https://agents.example/api/approvals/links/'), approve ?? 'no approve link');

    const listed = (await call('GET', '/api/admin/outbox?origin=approvals.notification', acme.token)).body;
    t.same(listed.items.map((m: { recipient: string }) => m.recipient), ['boss@example.org'], 'one message, none for the approver without an address');
    t.equal(listed.items[0].origin_id, opened.body.id);

    const decided = await tp.request({ method: 'POST', url: new URL(approve!).pathname, payload: {} });
    t.equal(decided.status, 200);
    t.equal((await call('GET', `/api/approvals/${opened.body.id}`, acme.token)).body.status, 'approved', 'the mailed link decides the case');
  });

  await t.test('a message written in a transaction that rolls back is neither kept nor sent', async (t) => {
    const mail = tp.platform.server.plugins.mail.api;
    await t.rejects(tp.platform.core.withTenant('acme', async (trx) => {
      await mail.send(trx, 'acme', { to: 'ghost@example.org', subject: 'Never', text: 'rolled back', origin: 'tests.rollback', originId: '1' });
      throw new Error('the change fails after the message is written');
    }), /the change fails/);
    await tp.platform.core.withTenant('acme', (trx) =>
      mail.send(trx, 'acme', { to: 'after@example.org', subject: 'After', text: 'committed', origin: 'tests.rollback', originId: '2' }));
    await until(async () => receiver.mails.find((m) => m.to.includes('after@example.org')), 'the committed message');
    const listed = (await call('GET', '/api/admin/outbox?origin=tests.rollback', acme.token)).body;
    t.same(listed.items.map((m: { recipient: string }) => m.recipient), ['after@example.org']);
    t.notOk(receiver.mails.some((m) => m.to.includes('ghost@example.org')));

    const again = await tp.platform.core.withTenant('acme', (trx) =>
      mail.send(trx, 'acme', { to: 'after@example.org', subject: 'After', text: 'committed', origin: 'tests.rollback', originId: '2' }));
    t.equal(again.id, listed.items[0].id, 'the same origin, reference and recipient is one message');

    const refused = await tp.platform.core.withTenant('acme', (trx) =>
      mail.send(trx, 'acme', { to: 'not an address', subject: 'x', text: 'y', origin: 'tests.rollback', originId: '3' })).then(() => undefined, (err) => err);
    t.match(refused, { output: { statusCode: 400, payload: { code: 'MAIL_INVALID' } } }, 'a bad address is a 400 that writes nothing');
  });

  await t.test('the outbox is the tenant\'s own and its admins\' only', async (t) => {
    const mine = (await call('GET', '/api/admin/outbox', acme.token)).body;
    t.ok(mine.total >= 3);
    const theirs = (await call('GET', '/api/admin/outbox', other.token)).body;
    t.same([theirs.items, theirs.total], [[], 0]);
    const retried = await call('POST', `/api/admin/outbox/${mine.items[0].id}/retry`, other.token);
    t.equal(retried.status, 404);
    t.equal(retried.body.code, 'OUTBOX_MESSAGE_NOT_FOUND');
    t.equal((await call('GET', '/api/admin/outbox', member)).status, 403, 'members are not operators');
    const sentOne = await call('POST', `/api/admin/outbox/${mine.items[0].id}/retry`, acme.token);
    t.same([sentOne.status, sentOne.body.code], [409, 'OUTBOX_NOT_RETRYABLE'], 'a sent message is not sent again');
    t.equal((await call('GET', '/api/admin/outbox?state=bogus', acme.token)).status, 400);
    t.equal((await call('POST', '/api/admin/outbox/abc/retry', acme.token)).status, 400);
  });

  await t.test('the SMTP password is in no response, no outbox row and no log line', async (t) => {
    const encoded = encodeURIComponent(PASSWORD);
    const stored = (await tp.platform.core.pool.query('SELECT * FROM mail_outbox')).rows;
    for (const [what, text] of [['responses', JSON.stringify(responses)], ['outbox', JSON.stringify(stored)], ['logs', tp.logs.join('\n')]] as const) {
      t.notOk(text.includes(PASSWORD) || text.includes(encoded), `${what} never hold the password`);
    }
    t.ok(tp.logs.some((line) => line.includes(`smtp://127.0.0.1:${receiver.port}`)), 'the log names the server without its credentials');
  });
});

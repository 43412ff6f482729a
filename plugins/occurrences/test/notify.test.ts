// The reporter is told when a report enters a state, with templates marked
// send_on_enter, on the platform listening on loopback with a real SMTP
// receiver: a citizen's public report gets the "received" e-mail of the
// initial state; a staff transition (REST, and GraphQL) sends the new state's
// e-mail, rendered in that state, whose tracking link opens the tracking page
// over HTTP with the new state in its history and the message; templates of
// another type or state send nothing, nor do refused transitions (a stale
// expected_state retried, a move outside the graph) or a change that rolls
// back at commit; a report without an address, or whose message the outbox
// refuses, gets the message recorded and no mail (the change goes through);
// another tenant's templates never apply.
import t from 'tap';
import { tenantWithAdmin, until } from 'agent-platform/sdk/testing';
import { startReceiver } from '../../mail/test/receiver.ts';
import { api, manifest, occurrencesPlatform, report, rows } from './helpers.ts';

const PASSWORD = 'N0tify-Pa55';

t.test('send_on_enter templates tell the reporter of each state their report enters', async (t) => {
  const receiver = await startReceiver({ user: 'mailer', pass: PASSWORD });
  t.teardown(() => receiver.close());
  const base = manifest({ trackingUrl: 'https://city.example/track/{tenant}/{reference}' });
  const mail = { plugin: './plugins/mail', options: { from: 'City <city@example.org>', retryBaseSeconds: 1 } };
  const plugins = [...base.plugins.slice(0, -1), mail, base.plugins.at(-1)!];
  const { tp, admin, staff } = await occurrencesPlatform(t, {
    listen: true, manifest: { plugins }, env: { SMTP_URL: `smtp://mailer:${PASSWORD}@127.0.0.1:${receiver.port}` },
  });
  const other = await tenantWithAdmin(tp, 'other');
  const a = api(tp);
  const pothole = await a.type(admin, { duplicate_policy: 'allow' });
  const lamp = await a.type(admin, { name: 'Lamp', duplicate_policy: 'allow' });
  const template = async (token: string, body: Record<string, unknown>) => {
    const created = await a.call('POST', '/api/backoffice/templates', { token }, body);
    if (created.status !== 201) throw new Error(`template: ${JSON.stringify(created.body)}`);
    return created.body as { id: number; send_on_enter: boolean };
  };
  const received = await template(admin, {
    name: 'Received', channel: 'email', send_on_enter: true, states: ['submitted'],
    subject: 'We received {{reference}}', body: 'Your report is {{state_label}}. Follow it: {{tracking_link}}',
  });
  const working = await template(admin, {
    name: 'Working', channel: 'email', send_on_enter: true, states: ['in_progress'], type_ids: [pothole.id],
    subject: '{{reference}} is {{state_label}}', body: 'Crews are on it ({{state}}). Follow it: {{tracking_link}}',
  });
  const lampOnly = await template(admin, { name: 'Lamp news', channel: 'email', send_on_enter: true, type_ids: [lamp.id], subject: 'Lamp {{reference}}', body: 'Lamp {{state}}' });
  const done = await template(admin, { name: 'Done', channel: 'email', send_on_enter: true, states: ['resolved'], subject: 'Fixed {{reference}}', body: 'Resolved: {{tracking_link}}' });
  const manual = await template(admin, { name: 'By hand', channel: 'email', subject: 'Manual {{reference}}', body: 'Only when staff apply it' });
  t.equal(manual.send_on_enter, false, 'send_on_enter is false unless set');

  const detail = async (id: number) => (await a.call('GET', `/api/backoffice/occurrences/${id}/`, { token: staff })).body as {
    state: string; messages: { id: number; template_id: number; subject: string; body: string; created_by: string | null }[];
  };
  const outbox = async (token: string) => (await a.call('GET', '/api/admin/outbox?limit=100', { token })).body.items as { recipient: string; subject: string; origin_id: string }[];
  const mailTo = (to: string, subject: string) => until(async () => receiver.mails.find((m) => m.to.includes(to) && m.subject === subject), `"${subject}" to ${to}`);

  const submitted = await a.submit('acme', report(pothole.id, { reporter_email: 'ana@example.org' }));
  t.equal(submitted.status, 201, JSON.stringify(submitted.body));
  const { id, reference } = submitted.body as { id: number; reference: string };
  const link = `https://city.example/track/acme/${reference}`;

  await t.test('a public report gets the initial state\'s e-mail', async (t) => {
    const mail = await mailTo('ana@example.org', `We received ${reference}`);
    t.equal(mail.text, `Your report is Submitted. Follow it: ${link}`);
    const messages = (await detail(id)).messages;
    t.same(messages.map((m) => [m.template_id, m.created_by]), [[received.id, null]], 'one message, no author, from the initial state\'s template only');
    t.same((await outbox(admin)).filter((m) => m.origin_id === String(messages[0].id)).map((m) => m.recipient), ['ana@example.org']);
  });

  await t.test('a staff transition sends the new state\'s e-mail; its link opens the tracking page with the state and the message', async (t) => {
    const triaged = await a.transition(staff, id, { to_state: 'triaged', expected_state: 'submitted' });
    t.equal(triaged.status, 200, JSON.stringify(triaged.body));
    t.same(triaged.body.messages_sent, [], 'no template for triaged');
    const moved = await a.transition(staff, id, { to_state: 'in_progress', expected_state: 'triaged', comment: 'crew B' });
    t.equal(moved.status, 200, JSON.stringify(moved.body));
    t.equal(moved.body.state, 'in_progress');
    t.equal(moved.body.messages_sent.length, 1);

    const mail = await mailTo('ana@example.org', `${reference} is In progress`);
    t.equal(mail.text, `Crews are on it (in_progress). Follow it: ${link}`, 'rendered in the new state');
    const followed = /Follow it: (\S+)/.exec(mail.text)![1];
    const page = await fetch(tp.url(new URL(followed).pathname));
    t.equal(page.status, 200);
    const html = await page.text();
    t.match(html, /<dd class="state">In progress<\/dd>/);
    t.match(html, /<span class="state">Submitted<\/span>[^]*<span class="state">Triaged<\/span>[^]*<span class="state">In progress<\/span>/, 'the history, oldest first');
    t.match(html, `<h3>${reference} is In progress</h3>`);
    t.match(html, `<h3>We received ${reference}</h3>`);
    t.notMatch(html, /ana@example\.org|crew B/, 'no address, no staff comment');

    const messages = (await detail(id)).messages;
    t.same(messages.map((m) => m.template_id), [received.id, working.id], 'another type\'s and another state\'s templates sent nothing');
    t.equal(messages[1].id, moved.body.messages_sent[0]);
    t.notOk(messages.some((m) => [lampOnly.id, done.id, manual.id].includes(m.template_id)));
  });

  await t.test('refused transitions send nothing: a stale expected_state retried, a move outside the graph', async (t) => {
    const before = { messages: (await detail(id)).messages.length, outbox: (await outbox(admin)).length };
    const retried = await a.transition(staff, id, { to_state: 'in_progress', expected_state: 'triaged' });
    t.equal(retried.status, 409);
    t.equal(retried.body.code, 'STATE_CHANGED');
    const outside = await a.transition(staff, id, { to_state: 'submitted' });
    t.equal(outside.status, 409);
    t.equal(outside.body.code, 'TRANSITION_NOT_ALLOWED');
    t.same({ messages: (await detail(id)).messages.length, outbox: (await outbox(admin)).length }, before);
  });

  await t.test('GraphQL transitionOccurrence sends the same way', async (t) => {
    const moved = await tp.request({
      method: 'POST', url: '/graphql', token: staff, tenant: 'acme',
      payload: { query: `mutation { transitionOccurrence(id: "${id}", input: {toState: "resolved", expectedState: "in_progress"}) { state } }` },
    });
    t.same(moved.body, { data: { transitionOccurrence: { state: 'resolved' } } });
    const mail = await mailTo('ana@example.org', `Fixed ${reference}`);
    t.equal(mail.text, `Resolved: ${link}`);
    t.same((await detail(id)).messages.map((m) => m.template_id), [received.id, working.id, done.id]);
  });

  await t.test('a change that rolls back at commit records and sends nothing', async (t) => {
    const doomed = await a.submit('acme', report(pothole.id, { title: 'Doomed report', reporter_email: 'doomed@example.org' }));
    t.equal(doomed.status, 201);
    await mailTo('doomed@example.org', `We received ${doomed.body.reference}`);
    const pool = tp.platform.core.pool;
    await pool.query(`CREATE FUNCTION notify_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused at commit'; END $$`);
    await pool.query(`CREATE CONSTRAINT TRIGGER notify_test_refuse AFTER INSERT ON occurrence_messages DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW WHEN (NEW.subject LIKE 'Fixed %') EXECUTE FUNCTION notify_test_refuse()`);
    t.teardown(async () => {
      await pool.query('DROP TRIGGER IF EXISTS notify_test_refuse ON occurrence_messages');
      await pool.query('DROP FUNCTION IF EXISTS notify_test_refuse()');
    });
    const before = (await outbox(admin)).length;
    for (const to_state of ['triaged', 'in_progress']) t.equal((await a.transition(staff, doomed.body.id, { to_state })).status, 200);
    const failed = await a.transition(staff, doomed.body.id, { to_state: 'resolved' });
    t.equal(failed.status, 500, 'the commit fails after the message and its outbox row were written');
    const after = await detail(doomed.body.id);
    t.equal(after.state, 'in_progress', 'the state did not change');
    t.notOk(after.messages.some((m) => m.template_id === done.id), 'no message recorded');
    const mails = (await outbox(admin)).filter((m) => m.recipient === 'doomed@example.org');
    t.same(mails.map((m) => m.subject).sort(), [`${doomed.body.reference} is In progress`, `We received ${doomed.body.reference}`], 'no outbox row for the rolled-back one');
    t.equal((await outbox(admin)).length, before + 1, 'only the in_progress e-mail was queued');
  });

  await t.test('a report without an address gets the message recorded and no mail', async (t) => {
    const before = (await outbox(admin)).length;
    const anonymous = await a.submit('acme', report(lamp.id, { reporter_email: null }));
    t.equal(anonymous.status, 201);
    const messages = (await detail(anonymous.body.id)).messages;
    t.same(messages.map((m) => m.template_id).sort(), [received.id, lampOnly.id].sort(), 'the initial state\'s template and the lamp type\'s');
    t.equal((await outbox(admin)).length, before, 'nothing queued');
    const stored = await rows(tp, 'occurrence_messages', 'acme');
    t.equal(stored.filter((m) => Number(m.occurrence_id) === anonymous.body.id).length, 2);
  });

  await t.test('another tenant: its own templates only, its own outbox', async (t) => {
    const theirType = await a.type(other.token, { duplicate_policy: 'allow' });
    t.same((await a.call('GET', '/api/backoffice/templates', { token: other.token })).body.items, [], 'no template of acme');
    await template(other.token, { name: 'Received', channel: 'email', send_on_enter: true, subject: 'Other got {{reference}}', body: 'Thanks' });
    const theirs = await a.submit('other', report(theirType.id, { reporter_email: 'rui@example.org' }));
    t.equal(theirs.status, 201);
    await mailTo('rui@example.org', `Other got ${theirs.body.reference}`);
    t.same((await outbox(other.token)).map((m) => m.recipient), ['rui@example.org']);
    t.notOk((await outbox(admin)).some((m) => m.recipient === 'rui@example.org'), 'not in acme\'s outbox');
    t.notOk(receiver.mails.some((m) => m.to.includes('rui@example.org') && m.subject.startsWith('We received')), 'acme\'s template never applied');
    const moved = await a.transition(staff, theirs.body.id, { to_state: 'triaged' });
    t.equal(moved.status, 404, 'acme\'s staff cannot move it');
  });

  await t.test('a message the outbox refuses is recorded without mail; the change goes through (by hand it is a 400)', async (t) => {
    const tree = await a.type(admin, { name: 'Tree', duplicate_policy: 'allow' });
    const long = await template(admin, { name: 'Echo', channel: 'email', send_on_enter: true, type_ids: [tree.id], subject: '{{description}}', body: 'Echo' });
    const before = (await outbox(admin)).length;
    const submittedTree = await a.submit('acme', report(tree.id, { description: 'x'.repeat(1200), reporter_email: 'long@example.org' }));
    t.equal(submittedTree.status, 201, 'a subject longer than an e-mail takes does not refuse the report');
    const messages = (await detail(submittedTree.body.id)).messages;
    t.same(messages.map((m) => m.template_id).sort(), [received.id, long.id].sort());
    const queued = await outbox(admin);
    t.same(queued.slice(0, queued.length - before).map((m) => m.subject), [`We received ${submittedTree.body.reference}`], 'only the received e-mail queued (newest first)');
    const moved = await a.transition(staff, submittedTree.body.id, { to_state: 'triaged' });
    t.equal(moved.status, 200);
    t.equal(moved.body.messages_sent.length, 1, 'recorded');
    const byHand = await a.call('POST', '/api/backoffice/templates/apply', { token: staff }, { occurrence_id: submittedTree.body.id, template_id: long.id });
    t.equal(byHand.status, 400);
    t.equal(byHand.body.code, 'MAIL_INVALID');
  });
});

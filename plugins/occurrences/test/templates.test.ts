// Message templates: staff-admin CRUD refusing unknown
// variables, applicability by type and state, previews that render and list
// unknown variables without storing anything, and apply: the message on the
// timeline, occurrence.message_sent emitted, and a trigger on it starting
// the delivering workflow with the recipient and text.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { api, eventsOf, occurrencesPlatform, report, rows } from './helpers.ts';

const ACK = {
  name: 'Acknowledgement', channel: 'email', subject: 'We received {{reference}}',
  body: 'Dear {{reporter_name}}, your report "{{title}}" ({{type_name}}) is {{state_label}}. Follow it: {{tracking_link}}',
};

t.test('templates: CRUD, applicability, preview and apply with the delivering trigger', async (t) => {
  const { tp, admin, staff, member } = await occurrencesPlatform(t, { occurrences: { trackingUrl: 'https://city.example/track/{reference}' } });
  await tp.platform.start();
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'allow' });
  const otherType = await a.type(admin, { duplicate_policy: 'allow' });
  const occurrence = (await a.submit('acme', report(type.id))).body;

  t.equal((await a.call('POST', '/api/backoffice/templates', { token: staff }, ACK)).status, 403, 'staff cannot write templates');
  const ack = await a.call('POST', '/api/backoffice/templates/', { token: admin }, { ...ACK, states: ['submitted'] });
  t.equal(ack.status, 201, JSON.stringify(ack.body));
  t.match(ack.body, { id: Number, channel: 'email', type_ids: [], states: ['submitted'] });
  const resolvedNote = (await a.call('POST', '/api/backoffice/templates', { token: admin }, {
    name: 'Resolved', channel: 'note', body: 'Closed {{reference}}', states: ['resolved'],
  })).body;
  const otherTypeSms = (await a.call('POST', '/api/backoffice/templates', { token: admin }, {
    name: 'Other type', channel: 'sms', body: 'About {{reference}}', type_ids: [otherType.id],
  })).body;
  t.ok(resolvedNote.id && otherTypeSms.id);

  const unknown = await a.call('POST', '/api/backoffice/templates', { token: admin }, { name: 'Bad', channel: 'note', body: 'Hi {{password}} {{env.HOME}}' });
  t.equal(unknown.status, 400);
  t.equal(unknown.body.code, 'TEMPLATE_INVALID');
  t.match(unknown.body.problems.join(' '), /unknown variables: password, env\.HOME/);
  t.equal((await a.call('POST', '/api/backoffice/templates', { token: admin }, { name: 'Bad', channel: 'note', body: 'Hi {{title' })).body.code, 'TEMPLATE_INVALID', 'unbalanced');
  t.equal((await a.call('POST', '/api/backoffice/templates', { token: admin }, { ...ACK })).body.code, 'TEMPLATE_NAME_TAKEN');

  for (const path of ['/api/backoffice/templates', '/api/backoffice/templates/']) {
    const listed = await a.call('GET', path, { token: staff });
    t.equal(listed.status, 200, path);
    t.same(listed.body.items.map((i: { name: string }) => i.name), ['Acknowledgement', 'Other type', 'Resolved']);
    t.ok(listed.body.variables.tracking_link);
  }
  t.equal((await a.call('GET', '/api/backoffice/templates', { token: member })).status, 403);

  for (const path of ['/api/backoffice/templates/for_occurrence', '/api/backoffice/templates/for_occurrence/']) {
    const applicable = await a.call('GET', `${path}?occurrence_id=${occurrence.id}`, { token: staff });
    t.equal(applicable.status, 200, path);
    t.same(applicable.body.items.map((i: { name: string }) => i.name), ['Acknowledgement'], 'by type and state');
  }

  for (const path of ['/api/backoffice/templates/preview', '/api/backoffice/templates/preview/']) {
    const preview = await a.call('POST', path, { token: staff }, { occurrence_id: occurrence.id, template_id: ack.body.id });
    t.equal(preview.status, 200, path);
    t.same(preview.body, {
      channel: 'email', subject: `We received ${occurrence.reference}`,
      body: `Dear Ana Silva, your report "Deep pothole on Rua Augusta" (Pothole) is Submitted. Follow it: https://city.example/track/${occurrence.reference}`,
      unknown_variables: [], applicable: true,
    });
  }
  const draft = await a.call('POST', '/api/backoffice/templates/preview', { token: staff }, { occurrence_id: occurrence.id, body: '{{reference}} {{secret}} {{process.env}} {{state}}' });
  t.same(draft.body, { channel: null, subject: '', body: `${occurrence.reference} {{secret}} {{process.env}} submitted`, unknown_variables: ['secret', 'process.env'], applicable: null });
  t.same(await rows(tp, 'occurrence_messages', 'acme'), [], 'previews store nothing');

  // Delivery: a trigger on occurrence.message_sent starts the workflow that would call the e-mail API.
  const workflow = await a.call('POST', '/api/admin/workflows', { token: admin }, {
    name: 'deliver-occurrence-message', description: 'sends a message of an occurrence',
    steps: [{ id: 'log', type: 'ACTION', handler: 'log', arguments: { message: '{{inputs.subject}}' } }],
  });
  t.equal(workflow.status, 201, JSON.stringify(workflow.body));
  const trigger = await a.call('POST', '/api/admin/triggers', { token: admin }, {
    name: 'deliver-occurrence-email', event_type: 'occurrence.message_sent', target_name: 'deliver-occurrence-message',
    event_filter: { 'data.channel': ['email'] },
    input_mapping: { to: '{{event.data.recipient}}', subject: '{{event.data.subject}}', text: '{{event.data.body}}', reference: '{{event.data.reference}}' },
  });
  t.equal(trigger.status, 201, JSON.stringify(trigger.body));

  for (const path of ['/api/backoffice/templates/apply', '/api/backoffice/templates/apply/']) {
    const applied = await a.call('POST', path, { token: staff }, { occurrence_id: occurrence.id, template_id: ack.body.id });
    t.equal(applied.status, 201, `${path}: ${JSON.stringify(applied.body)}`);
    t.match(applied.body, { id: Number, template_id: ack.body.id, channel: 'email', subject: `We received ${occurrence.reference}`, created_by: 'acme-staff' });
  }
  const notApplicable = await a.call('POST', '/api/backoffice/templates/apply', { token: staff }, { occurrence_id: occurrence.id, template_id: otherTypeSms.id });
  t.equal(notApplicable.status, 409);
  t.equal(notApplicable.body.code, 'TEMPLATE_NOT_APPLICABLE');
  t.equal((await a.call('POST', '/api/backoffice/templates/apply', { token: member }, { occurrence_id: occurrence.id, template_id: ack.body.id })).status, 403);
  t.equal((await a.call('POST', '/api/backoffice/templates/apply', { token: staff }, { occurrence_id: 987654, template_id: ack.body.id })).status, 404);

  const detail = await a.call('GET', `/api/backoffice/occurrences/${occurrence.id}`, { token: staff });
  t.equal(detail.body.messages.length, 2, 'on the timeline');
  const [sent] = await eventsOf(tp, admin, 'occurrence.message_sent', 2);
  t.match(sent.data, { occurrence_id: occurrence.id, reference: occurrence.reference, channel: 'email', recipient: 'ana@example.org', template_id: ack.body.id });

  const executions = await until(async () => {
    const listed = await a.call('GET', '/api/admin/executions?workflow=deliver-occurrence-message', { token: admin });
    return listed.body.items?.length === 2 && listed.body.items;
  }, 'the trigger to start the delivery workflow twice');
  const started = await a.call('GET', `/api/admin/executions/${executions[0].execution_id}`, { token: admin });
  t.same(started.body.context.inputs, {
    to: 'ana@example.org', subject: `We received ${occurrence.reference}`, reference: occurrence.reference,
    text: `Dear Ana Silva, your report "Deep pothole on Rua Augusta" (Pothole) is Submitted. Follow it: https://city.example/track/${occurrence.reference}`,
  });

  const updated = await a.call('PUT', `/api/backoffice/templates/${resolvedNote.id}/`, { token: admin }, { name: 'Resolved', channel: 'note', body: 'Done: {{reference}}' });
  t.equal(updated.status, 200);
  t.same(updated.body.states, [], 'replaced whole');
  t.equal((await a.call('GET', `/api/backoffice/templates/${resolvedNote.id}`, { token: staff })).body.body, 'Done: {{reference}}');
  t.equal((await a.call('DELETE', `/api/backoffice/templates/${ack.body.id}`, { token: admin })).status, 204);
  t.equal((await a.call('GET', `/api/backoffice/templates/${ack.body.id}`, { token: staff })).status, 404);
  t.equal((await rows(tp, 'occurrence_messages', 'acme')).length, 2, 'recorded messages stay');
});

// The per-tenant stream: real CloudEvents, event numbers, transactional
// emission, the type catalogue and custom types. Stream order under
// concurrent transactions: stream-order.test.ts.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import { EVENT_TYPES as EVENTS_TYPES } from '../event-types.ts';
import { EVENT_TYPES as WORKFLOWS_TYPES } from '../../workflows/event-types.ts';
import { asCloudEvent, dispatched, emit, eventsFixture, rawClient } from './helpers.ts';

t.test('an emitted event is a CloudEvents 1.0 event on the tenant stream', async (t) => {
  const { tp, token } = await eventsFixture(t, { workflow: false });
  const emitted = await emit(tp, token, 'order.created', { order_id: 42, lines: [{ sku: 'a' }] }, '/shop');
  const parsed = asCloudEvent(emitted.event);
  t.equal(parsed.specversion, '1.0');
  t.equal(parsed.type, 'order.created');
  t.equal(parsed.source, '/shop');
  t.equal(parsed.datacontenttype, 'application/json');
  t.equal((parsed as unknown as { tenantid: string }).tenantid, 'acme', 'tenantid is an extension attribute');
  t.same(parsed.data, { order_id: 42, lines: [{ sku: 'a' }] });
  t.match(parsed.id, /^[0-9a-f-]{36}$/);
  t.ok(!Number.isNaN(Date.parse(parsed.time!)), 'time is an RFC 3339 timestamp');
  t.ok(Number.isSafeInteger(emitted.seq) && emitted.seq > 0, 'the event has a number');
  t.same(emitted.warnings, ['"order.created" is neither a built-in nor a registered custom event type']);

  await dispatched(tp, token);
  const recent = await tp.request({ url: '/api/admin/triggers/events/recent?limit=10', token });
  t.equal(recent.status, 200);
  t.equal(recent.body.total, 1);
  t.equal(recent.body.items.length, 1);
  const [item] = recent.body.items;
  t.equal(item.seq, 1);
  t.equal(item.dispatched, true, 'the dispatcher has passed it');
  t.match(item.position, /^\d{20}-\d{19}$/, 'and a position in the stream');
  const { seq: _seq, position: _position, dispatched: _dispatched, ...envelope } = item;
  t.same(envelope, emitted.event, 'recent returns the same envelope');
  asCloudEvent(envelope);
});

t.test('events are numbered in emission order; tenants see only their own events', async (t) => {
  const { tp, token } = await eventsFixture(t, { workflow: false });
  const other = await tenantWithAdmin(tp, 'globex');
  for (let i = 0; i < 3; i += 1) await emit(tp, token, 'tick', { i });
  for (let i = 0; i < 2; i += 1) await emit(tp, other.token, 'tock', { i });
  const mine = await tp.request({ url: '/api/admin/triggers/events/recent', token });
  const theirs = await tp.request({ url: '/api/admin/triggers/events/recent', token: other.token });
  const ticks = mine.body.items.map((e: { seq: number; type: string; data: { i: number } }) => [e.type, e.data.i]);
  t.same(ticks, [['tick', 2], ['tick', 1], ['tick', 0]], 'newest first');
  const seqs = mine.body.items.map((e: { seq: number }) => e.seq);
  t.same(seqs, [...seqs].sort((a, b) => b - a), 'by number, descending');
  t.same(theirs.body.items.map((e: { type: string; data: { i: number } }) => [e.type, e.data.i]), [['tock', 1], ['tock', 0]]);
  const typed = await tp.request({ url: '/api/admin/triggers/events/recent?type=ti*&limit=2', token });
  t.same(typed.body.items.map((e: { seq: number }) => e.seq), seqs.slice(0, 2), 'type patterns and limit apply');
});

t.test('an event exists only if the transaction that emitted it commits', async (t) => {
  const { tp, token } = await eventsFixture(t, { workflow: false });
  const { core } = tp.platform;
  await t.rejects(core.withTenant('acme', async (trx) => {
    await core.events.emit(trx, 'acme', { type: 'order.created', source: '/shop', data: { n: 1 } });
    throw new Error('the cause failed');
  }), /the cause failed/);
  await core.withTenant('acme', (trx) => core.events.emit(trx, 'acme', { type: 'order.created', source: '/shop', data: { n: 2 } }));
  const recent = await tp.request({ url: '/api/admin/triggers/events/recent', token });
  t.same(recent.body.items.map((e: { data: { n: number } }) => e.data.n), [2], 'only the committed event (the rolled-back one\'s number is a gap)');
  const client = await rawClient(t, tp.databaseUrl);
  const jobs = await client.query(`SELECT count(*)::int AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks k ON k.id = j.task_id WHERE k.identifier = 'events.dispatch'`);
  t.ok(jobs.rows[0].n <= 1, 'no dispatcher job was left behind by the rolled-back emit');
});

t.test('bad events are refused with a 400 naming the field; emitting needs the admin role', async (t) => {
  const { tp, token } = await eventsFixture(t, { workflow: false });
  const url = '/api/admin/triggers/events/emit';
  const badType = await tp.request({ method: 'POST', url, token, payload: { type: 'not a type', data: {} } });
  t.equal(badType.status, 400);
  t.match(badType.body.message, /^type: /);
  const noType = await tp.request({ method: 'POST', url, token, payload: { data: {} } });
  t.equal(noType.status, 400);
  t.match(noType.body.message, /"type" is required/);
  const badSource = await tp.request({ method: 'POST', url, token, payload: { type: 'a.b', source: 'has space' } });
  t.equal(badSource.status, 400);
  t.match(badSource.body.message, /^source: /);
  const arrayData = await tp.request({ method: 'POST', url, token, payload: { type: 'a.b', data: [1] } });
  t.equal(arrayData.status, 400);

  await tp.request({ method: 'POST', url: '/api/admin/users', token, payload: { sub: 'viewer', display_name: 'Viewer', roles: [] } });
  const viewer = (await tp.request({ method: 'POST', url: '/api/admin/users/viewer/tokens', token })).body.access_token;
  const forbidden = await tp.request({ method: 'POST', url, token: viewer, payload: { type: 'a.b' } });
  t.equal(forbidden.status, 403);
  t.equal(forbidden.body.code, 'ROLE_REQUIRED');
  const memberRead = await tp.request({ url: '/api/admin/triggers/events/recent', token: viewer });
  t.equal(memberRead.status, 403, 'reading the stream needs the admin role too (events carry other users\' data)');
  t.equal(memberRead.body.code, 'ROLE_REQUIRED');
  const noTenant = await tp.request({ method: 'POST', url, token: tp.adminToken, payload: { type: 'a.b' } });
  t.equal(noTenant.status, 400);
  t.equal(noTenant.body.code, 'TENANT_REQUIRED');
});

t.test('the built-in event types the loaded plugins registered are listed with a description', async (t) => {
  // The events manifest loads tenancy, workflows and events: their types, in
  // registration (dependency) order. test/core/event-types.test.ts checks the
  // complete built-in list with the default manifest.
  const { tp, token } = await eventsFixture(t, { workflow: false });
  const listed = await tp.request({ url: '/api/admin/triggers/events/types', token });
  t.equal(listed.status, 200);
  const types = listed.body.items.map((item: { type: string }) => item.type);
  t.same(types, [...WORKFLOWS_TYPES, ...EVENTS_TYPES].map((entry) => entry.type));
  t.ok(types.includes('schedule.fired') && types.includes('workflow.completed') && types.includes('definition.updated'));
  t.ok(listed.body.items.every((item: { description: string; builtin: boolean }) => item.description.length > 10 && item.builtin));
});

t.test('custom event types: CRUD, never a built-in name, and a schema that only warns', async (t) => {
  const { tp, token } = await eventsFixture(t, { workflow: false });
  const base = '/api/admin/triggers/events/types/custom';
  const schema = { type: 'object', required: ['amount'], properties: { amount: { type: 'number' } } };
  const created = await tp.request({
    method: 'POST', url: base, token,
    payload: { type: 'invoice.paid', description: 'An invoice was paid', sample_payload: { amount: 'ten' }, schema },
  });
  t.equal(created.status, 201);
  t.equal(created.body.type, 'invoice.paid');
  t.same(created.body.warnings, ['sample_payload/amount must be number'], 'a sample that does not conform is a warning');

  t.equal((await tp.request({ method: 'POST', url: base, token, payload: { type: 'invoice.paid' } })).status, 409);
  const builtin = await tp.request({ method: 'POST', url: base, token, payload: { type: 'schedule.fired' } });
  t.equal(builtin.status, 400);
  t.same(builtin.body.fields, ['type']);
  const badSchema = await tp.request({ method: 'POST', url: base, token, payload: { type: 'x.y', schema: { type: 'no-such-type' } } });
  t.equal(badSchema.status, 400);
  t.same(badSchema.body.fields, ['schema']);

  const warned = await emit(tp, token, 'invoice.paid', { amount: 'ten' });
  t.match(warned.warnings, [/amount must be number/], 'emission warns');
  const clean = await emit(tp, token, 'invoice.paid', { amount: 10 });
  t.same(clean.warnings, []);
  const recent = await tp.request({ url: '/api/admin/triggers/events/recent', token });
  t.equal(recent.body.items.length, 2, 'both were emitted');

  const updated = await tp.request({ method: 'PUT', url: `${base}/invoice.paid`, token, payload: { description: 'Paid', schema: null } });
  t.equal(updated.status, 200);
  t.equal(updated.body.schema, null);
  t.same((await emit(tp, token, 'invoice.paid', { amount: 'ten' })).warnings, [], 'without a schema, no warning');
  const listed = await tp.request({ url: base, token });
  t.same(listed.body.items.map((item: { type: string }) => item.type), ['invoice.paid']);
  t.equal(listed.body.total, 1);
  const withCustom = await tp.request({ url: '/api/admin/triggers/events/types?include_custom=true', token });
  t.ok(withCustom.body.items.some((item: { type: string; builtin: boolean }) => item.type === 'invoice.paid' && !item.builtin));
  t.equal((await tp.request({ method: 'DELETE', url: `${base}/invoice.paid`, token })).status, 204);
  t.equal((await tp.request({ method: 'DELETE', url: `${base}/invoice.paid`, token })).status, 404);
  t.equal((await tp.request({ method: 'PUT', url: `${base}/${randomUUID()}`, token, payload: {} })).status, 404);
});

t.test('the literal /events/... routes are not shadowed by /{name}', async (t) => {
  const { tp, token } = await eventsFixture(t, { workflow: false });
  t.equal((await tp.request({ url: '/api/admin/triggers/events/recent', token })).status, 200);
  t.equal((await tp.request({ url: '/api/admin/triggers/events/types', token })).status, 200);
  t.equal((await tp.request({ url: '/api/admin/triggers/events/types/custom', token })).status, 200);
  const reserved = await tp.request({
    method: 'POST', url: '/api/admin/triggers', token, payload: { name: 'events', event_type: 'a.b', target_name: 'record' },
  });
  t.equal(reserved.status, 400);
  t.same(reserved.body.fields, ['name']);
});

t.test('retention deletes dispatched events older than retentionDays (30 by default)', async (t) => {
  const { tp, token } = await eventsFixture(t, { workflow: false });
  const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
  await tp.request({ method: 'POST', url: '/api/admin/triggers/events/emit', token, payload: { type: 'old.one', time: old } });
  await emit(tp, token, 'new.one');
  await dispatched(tp, token);
  await tp.platform.core.jobs.enqueueLong('events.retention', {});
  const client = await rawClient(t, tp.databaseUrl);
  const types = async () => (await client.query(`SELECT type FROM events ORDER BY seq`)).rows.map((r) => r.type);
  for (let i = 0; i < 100 && (await types()).length > 1; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  t.same(await types(), ['new.one']);
  const recent = await tp.request({ url: '/api/admin/triggers/events/recent', token });
  t.equal(recent.body.total, 1, 'the stream length follows');
  t.equal(recent.body.items[0].seq, 2, 'sequence numbers are not reused');
});

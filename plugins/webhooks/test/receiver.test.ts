// The event webhook receiver: X-Webhook-Secret against the
// definition's secret, else the shared WEBHOOK_SECRET (503 when neither, 401
// when no match); freshness and idempotency when both X-Webhook-Timestamp and
// X-Webhook-Id are sent; any JSON body becomes the data of a webhook.received event.
import t from 'tap';
import { CloudEvent, HTTP } from 'cloudevents';
import { tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';
import { nowSeconds, startWebhooksPlatform } from './helpers.ts';

const SHARED = 'the-shared-webhook-secret';

function receive(tp: TestPlatform, path: string, options: { secret?: string; payload?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.secret !== undefined) headers['x-webhook-secret'] = options.secret;
  return tp.request({ method: 'POST', url: `/api/webhooks/events/${path}`, headers, payload: options.payload ?? '{"action":"opened"}' });
}

/** The tenant's webhook.received events, oldest first, from its durable stream (the events plugin's API). */
async function receivedEvents(tp: TestPlatform, tenantId: string): Promise<any[]> {
  const recent = await tp.request({ url: '/api/admin/triggers/events/recent?type=webhook.received&limit=500', token: tp.adminToken, tenant: tenantId });
  if (recent.status !== 200) throw new Error(JSON.stringify(recent.body));
  return recent.body.items.reverse();
}

/** Parses an event the way a CloudEvents consumer would (structured mode); throws if it is invalid. */
function asCloudEvent(event: unknown) {
  const parsed = HTTP.toEvent({ headers: { 'content-type': 'application/cloudevents+json' }, body: JSON.stringify(event) }) as CloudEvent<unknown>;
  parsed.validate();
  return parsed;
}

async function defineWebhook(tp: TestPlatform, token: string, name: string): Promise<string> {
  const created = await tp.request({ method: 'POST', url: '/api/admin/webhooks', token, payload: { name } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return created.body.secret;
}

t.test('secrets: the definition\'s first, then WEBHOOK_SECRET', async (t) => {
  const tp = await startWebhooksPlatform(t, { env: { WEBHOOK_SECRET: SHARED }, captureLogs: true });
  const tenant = await tenantWithAdmin(tp, 'rcv-a');
  const secret = await defineWebhook(tp, tenant.token, 'github');

  const accepted = await receive(tp, 'rcv-a/github', { secret });
  t.equal(accepted.status, 202, 'the definition\'s secret');
  t.match(accepted.body, { status: 'accepted', event_id: /^[0-9a-f-]{36}$/ });
  const [event] = await receivedEvents(tp, 'rcv-a');
  t.match(event, {
    specversion: '1.0', id: accepted.body.event_id, type: 'webhook.received', source: '/webhooks/github', tenantid: 'rcv-a',
    data: { action: 'opened' },
  }, 'the body became the data of a webhook.received event on the tenant\'s stream');
  t.equal(asCloudEvent(event).type, 'webhook.received', 'a valid CloudEvent');

  const shared = await receive(tp, 'rcv-a/github', { secret: SHARED });
  t.equal(shared.status, 401, 'the shared secret does not open a webhook that has its own');
  t.equal(shared.body.code, 'WEBHOOK_INVALID_SECRET');
  const nearMiss = `${secret.slice(0, -1)}${secret.endsWith('0') ? '1' : '0'}`;
  t.equal((await receive(tp, 'rcv-a/github', { secret: nearMiss })).status, 401, 'a near miss (the last character differs)');
  t.equal((await receive(tp, 'rcv-a/github', {})).status, 401, 'no secret header');

  t.equal((await receive(tp, 'rcv-a/undefined-hook', { secret: SHARED })).status, 202, 'without a definition, the shared secret');
  t.equal((await receive(tp, 'rcv-a/undefined-hook', { secret })).status, 401, 'and only it');
  t.equal((await receive(tp, 'rcv-a/undefined-hook', { secret: `${SHARED}x` })).status, 401, 'a longer string is no match');

  const unknownTenant = await receive(tp, 'rcv-nobody/github', { secret: SHARED });
  t.equal(unknownTenant.status, 404, 'an unknown tenant, after authentication');
  t.equal(unknownTenant.body.code, 'TENANT_NOT_FOUND');
  t.equal((await receive(tp, 'rcv-nobody/github', { secret: 'guess' })).status, 401, 'an unauthenticated caller learns nothing about tenants');
  t.equal((await receive(tp, 'NOT_A_TENANT/github', { secret: SHARED })).status, 400, 'a malformed tenant alias is bad input');
  t.equal((await receivedEvents(tp, 'rcv-a')).length, 2, 'only the accepted requests emitted events');

  const log = tp.logs.join('\n');
  t.notOk(log.includes(secret) || log.includes(SHARED), 'no secret is logged');
});

t.test('503 when no secret is available, 401 with one', async (t) => {
  const tp = await startWebhooksPlatform(t);
  const tenant = await tenantWithAdmin(tp, 'rcv-none');
  const unconfigured = await receive(tp, 'rcv-none/anything', { secret: 'whatever' });
  t.equal(unconfigured.status, 503, 'no definition and no WEBHOOK_SECRET');
  t.equal(unconfigured.body.code, 'WEBHOOK_SECRET_NOT_CONFIGURED');
  t.equal((await receive(tp, 'rcv-unknown/anything', { secret: 'whatever' })).status, 503, 'the same for an unknown tenant');
  const secret = await defineWebhook(tp, tenant.token, 'anything');
  t.equal((await receive(tp, 'rcv-none/anything', { secret: 'whatever' })).status, 401, 'once defined, a wrong secret is a 401');
  t.equal((await receive(tp, 'rcv-none/anything', { secret })).status, 202);
});

t.test('freshness and idempotency when both headers are present', async (t) => {
  const tp = await startWebhooksPlatform(t, { env: { WEBHOOK_SECRET: SHARED } });
  const tenant = await tenantWithAdmin(tp, 'rcv-idem');
  const secret = await defineWebhook(tp, tenant.token, 'github');
  const replayHeaders = (id: string, timestamp = nowSeconds()) => ({ 'x-webhook-id': id, 'x-webhook-timestamp': String(timestamp) });

  t.equal((await receive(tp, 'rcv-idem/github', { secret, headers: replayHeaders('d-1') })).status, 202);
  const duplicate = await receive(tp, 'rcv-idem/github', { secret, headers: replayHeaders('d-1') });
  t.equal(duplicate.status, 409, 'the same id within 10 minutes');
  t.equal(duplicate.body.message, 'Duplicate webhook');
  t.equal((await receive(tp, 'rcv-idem/other', { secret: SHARED, headers: replayHeaders('d-1') })).status, 202, 'ids are per webhook');
  t.equal((await receive(tp, 'rcv-idem/github', { secret })).status, 202, 'without the headers there is no replay check');

  const old = await receive(tp, 'rcv-idem/github', { secret, headers: replayHeaders('d-2', nowSeconds() - 301) });
  t.equal(old.status, 401);
  t.equal(old.body.message, 'Timestamp too old');
  const future = await receive(tp, 'rcv-idem/github', { secret, headers: replayHeaders('d-2', nowSeconds() + 301) });
  t.equal(future.status, 401);
  t.equal(future.body.message, 'Timestamp is in the future');
  const onlyTimestamp = await receive(tp, 'rcv-idem/github', { secret, headers: { 'x-webhook-timestamp': String(nowSeconds() - 3600) } });
  t.equal(onlyTimestamp.status, 202, 'a timestamp without an id is not checked');
  const badJson = await receive(tp, 'rcv-idem/github', { secret, headers: replayHeaders('d-2'), payload: '{"oops"' });
  t.equal(badJson.status, 400, 'a body that is not JSON');
  t.equal(badJson.body.code, 'WEBHOOK_INVALID_JSON');
  t.equal((await receive(tp, 'rcv-idem/github', { secret, headers: replayHeaders('d-2') })).status, 202, 'refused requests keep no id');

  const ids = await tp.platform.core.withTenant('rcv-idem', (trx) =>
    trx.selectFrom('webhook_deliveries').select(['scope', 'webhook_id']).orderBy('scope').orderBy('webhook_id').execute());
  t.same(ids, [
    { scope: 'event:github', webhook_id: 'd-1' },
    { scope: 'event:github', webhook_id: 'd-2' },
    { scope: 'event:other', webhook_id: 'd-1' },
  ]);
  t.equal((await receivedEvents(tp, 'rcv-idem')).length, 5, 'one event per accepted request, none for the refused ones');
});

t.test('any JSON body is accepted', async (t) => {
  const tp = await startWebhooksPlatform(t, { env: { WEBHOOK_SECRET: SHARED } });
  await tenantWithAdmin(tp, 'rcv-body');
  const cases: [string, unknown][] = [
    ['{"a":{"b":[1,2]}}', { a: { b: [1, 2] } }],
    ['[1,2,3]', { body: [1, 2, 3] }],
    ['"text"', { body: 'text' }],
    ['42', { body: 42 }],
    ['null', { body: null }],
    ['', {}],
  ];
  for (const [payload] of cases) {
    t.equal((await receive(tp, 'rcv-body/hook', { secret: SHARED, payload })).status, 202, `body ${JSON.stringify(payload)}`);
  }
  const plain = await receive(tp, 'rcv-body/hook', { secret: SHARED, payload: '{"x":1}', headers: { 'content-type': 'text/plain' } });
  t.equal(plain.status, 202, 'whatever content type labels it');
  const form = await receive(tp, 'rcv-body/hook', { secret: SHARED, payload: 'a=1&b=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  t.equal(form.status, 400, 'but it must be JSON');
  const big = await receive(tp, 'rcv-body/hook', { secret: SHARED, payload: JSON.stringify({ blob: 'x'.repeat(300 * 1024) }) });
  t.equal(big.status, 400, 'data over the event stream\'s size limit is bad input, not a server error');
  const events = await receivedEvents(tp, 'rcv-body');
  t.same(events.map((e) => e.data), [...cases.map(([, data]) => data), { x: 1 }],
    'an object is the data; any other JSON value is kept under `body`; an empty body is {}');
});

// Signed resume hardening, through the real server: a
// captured request cannot be replayed with a fresh id and timestamp; the
// Standard Webhooks scheme is accepted (and its replays refused); a body not
// declared as application/json is a 415 that resumes nothing.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import { signBody, signStandard, standardSecretOf, standardSignedHeaders } from '../signing/signing.ts';
import { execution, nowSeconds, postSigned, signingSecretOf, startWebhooksPlatform, waitingExecution } from './helpers.ts';

t.test('a captured X-Webhook-* request replayed with a fresh id and timestamp is refused', async (t) => {
  const tp = await startWebhooksPlatform(t, { listen: true });
  const tenant = await tenantWithAdmin(tp, 'sec-replay');
  const secret = await signingSecretOf(tp, tenant.token);
  const executionId = await waitingExecution(tp, tenant.token, { eventType: 'never.sent' });
  const raw = JSON.stringify({ tenant_id: 'sec-replay', workflow_id: executionId, event_data: { approved: true } });
  const captured = signBody(secret, raw);

  const original = await postSigned(tp, { secret, raw, signature: captured, id: 'orig-1' });
  t.equal(original.status, 202, 'the original request');
  const replay = await postSigned(tp, { secret, raw, signature: captured, id: randomUUID(), timestamp: nowSeconds() + 1 });
  t.equal(replay.status, 409, 'the same signature under a fresh id and timestamp');
  t.same(replay.body, { statusCode: 409, error: 'Conflict', message: 'Duplicate webhook', code: 'WEBHOOK_SIGNATURE_REPLAYED' });
  const otherType = await tp.request({
    method: 'POST', url: '/api/webhooks/other.type', payload: raw,
    headers: { 'content-type': 'application/json', 'x-webhook-signature': captured, 'x-webhook-timestamp': String(nowSeconds()), 'x-webhook-id': randomUUID() },
  });
  t.equal(otherType.status, 409, 'or to another event type (the path is not signed either)');
  t.equal((await execution(tp, tenant.token, executionId)).buffered_signals, 1, 'only the original was delivered');

  const refusedId = 'reused-after-refusal';
  t.equal((await postSigned(tp, { secret, raw, signature: captured, id: refusedId })).status, 409);
  t.equal((await postSigned(tp, { secret, body: { tenant_id: 'sec-replay', workflow_id: executionId }, id: refusedId })).status, 202,
    'a refused replay keeps no id: the id is still free for a genuine request');

  const other = await tenantWithAdmin(tp, 'sec-replay-b');
  const otherSecret = await signingSecretOf(tp, other.token);
  const otherExecution = await waitingExecution(tp, other.token, { eventType: 'never.sent' });
  const otherRaw = JSON.stringify({ tenant_id: 'sec-replay-b', workflow_id: otherExecution, event_data: { approved: true } });
  t.equal((await postSigned(tp, { secret: otherSecret, raw: otherRaw })).status, 202, 'records are per tenant: another tenant is unaffected');

  const undelivered = JSON.stringify({ tenant_id: 'sec-replay', workflow_id: randomUUID() });
  t.equal((await postSigned(tp, { secret, raw: undelivered, id: 'u-1' })).status, 404);
  t.equal((await postSigned(tp, { secret, raw: undelivered, id: 'u-2' })).status, 404,
    'an undelivered signal gives its signature back with its id (a retry is not called a replay)');
});

t.test('Standard Webhooks: accepted, with the secret\'s whsec_ form; replays refused', async (t) => {
  // The published example of the Standard Webhooks specification.
  t.equal(
    signStandard('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    'signStandard matches the specification\'s test vector',
  );

  const tp = await startWebhooksPlatform(t, { listen: true });
  const tenant = await tenantWithAdmin(tp, 'sec-std');
  const secret = await signingSecretOf(tp, tenant.token);
  const executionId = await waitingExecution(tp, tenant.token, { eventType: 'approval.granted' });
  const raw = JSON.stringify({ tenant_id: 'sec-std', workflow_id: executionId, event_data: { approved: true } });
  const send = (headers: Record<string, string>, body = raw) =>
    tp.request({ method: 'POST', url: '/api/webhooks/approval.granted', headers, payload: body });

  const headers = standardSignedHeaders(standardSecretOf(secret), raw);
  const accepted = await send(headers);
  t.equal(accepted.status, 202, 'a Standard Webhooks request signed with whsec_<base64 of the secret>');
  t.same(accepted.body, { status: 'delivered', workflow_id: executionId });
  const done = await (async () => {
    for (let i = 0; i < 200; i++) {
      const found = await execution(tp, tenant.token, executionId);
      if (found.status === 'completed') return found;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return execution(tp, tenant.token, executionId);
  })();
  t.equal(done.status, 'completed', 'and it resumed the waiting execution');

  const exact = await send(headers);
  t.equal(exact.status, 409, 'the same request again');
  t.equal(exact.body.code, 'WEBHOOK_DUPLICATE');

  const other = await waitingExecution(tp, tenant.token, { eventType: 'never.sent' });
  const body2 = JSON.stringify({ tenant_id: 'sec-std', workflow_id: other });
  const first = standardSignedHeaders(secret, body2, { id: 'msg_1' });
  t.equal((await send(first, body2)).status, 202, 'the raw secret signs alike');
  const newId = await send({ ...first, 'webhook-id': 'msg_2' }, body2);
  t.equal(newId.status, 401, 'a captured signature under a new id does not verify: the id is signed');
  const newTime = await send({ ...first, 'webhook-timestamp': String(nowSeconds() + 1) }, body2);
  t.equal(newTime.status, 401, 'nor under a new timestamp');
  t.equal(newTime.body.message, 'Invalid signature');

  const listed = standardSignedHeaders(secret, body2, { id: 'msg_3' });
  const several = { ...listed, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} v1a,ignored ${listed['webhook-signature']}` };
  t.equal((await send(several, body2)).status, 202, 'a space-separated list of signatures: one match is enough');

  const stale = standardSignedHeaders(secret, body2, { id: 'msg_4', timestamp: nowSeconds() - 301 });
  t.equal((await send(stale, body2)).body.message, 'Timestamp too old', 'webhook-timestamp is checked for freshness');

  // The same MAC cannot cross schemes: an X-Webhook request whose body is `id.timestamp.body` is not JSON (422), and
  // its MAC is recorded like any other.
  const crossBody = `msg_5.${nowSeconds()}.${body2}`;
  t.equal((await postSigned(tp, { secret, raw: crossBody })).status, 422, 'a cross-scheme body is not a valid payload');
  t.equal((await execution(tp, tenant.token, other)).buffered_signals, 2, 'two signals reached the second execution');
});

t.test('Content-Type must be application/json (415, nothing resumed)', async (t) => {
  const tp = await startWebhooksPlatform(t, { listen: true });
  const tenant = await tenantWithAdmin(tp, 'sec-ct');
  const secret = await signingSecretOf(tp, tenant.token);
  const executionId = await waitingExecution(tp, tenant.token, { eventType: 'approval.granted' });
  const body = { tenant_id: 'sec-ct', workflow_id: executionId, event_data: { approved: true } };

  const plain = await postSigned(tp, { secret, body, headers: { 'content-type': 'text/plain' } });
  t.equal(plain.status, 415, 'text/plain');
  t.same(plain.body, { statusCode: 415, error: 'Unsupported Media Type', message: 'Content-Type must be application/json', code: 'WEBHOOK_UNSUPPORTED_MEDIA_TYPE' });
  const form = await postSigned(tp, { secret, body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  t.equal(form.status, 415, 'a form');
  const none = await tp.request({ method: 'POST', url: '/api/webhooks/approval.granted', payload: JSON.stringify(body), headers: {
    'x-webhook-signature': signBody(secret, JSON.stringify(body)), 'x-webhook-timestamp': String(nowSeconds()), 'x-webhook-id': randomUUID(),
  } });
  t.equal(none.status, 415, 'no Content-Type');
  t.equal(none.body.code, 'WEBHOOK_UNSUPPORTED_MEDIA_TYPE');
  const unsigned = await postSigned(tp, { secret, raw: 'not json', signature: 'sha256=00', headers: { 'content-type': 'text/plain' } });
  t.equal(unsigned.status, 415, 'part of payload validity: answered before the body, the signature and the rest');
  const waiting = await execution(tp, tenant.token, executionId);
  t.equal(waiting.status, 'waiting', 'nothing resumed');
  t.equal(waiting.buffered_signals, 0, 'nothing buffered');

  const charset = await postSigned(tp, { secret, body, headers: { 'content-type': 'Application/JSON; charset=utf-8' } });
  t.equal(charset.status, 202, 'application/json with a charset, in any case, is accepted (the refusals kept no signature)');
});

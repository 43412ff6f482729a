// Signed resume with the real workflows plugin: a signed POST resumes a
// workflow waiting at a WAIT step; 202 means delivered (matched or buffered);
// ended or unknown executions are 404; an X-Webhook-Id is accepted once per
// tenant; the 61st request of a minute is refused.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import { execution, postSigned, signingSecretOf, startWebhooksPlatform, until, waitingExecution } from './helpers.ts';

t.test('a signed POST resumes a waiting workflow with its wait result', async (t) => {
  const tp = await startWebhooksPlatform(t, { listen: true });
  const tenant = await tenantWithAdmin(tp, 'rs-e2e');
  const secret = await signingSecretOf(tp, tenant.token);
  const executionId = await waitingExecution(tp, tenant.token, { eventType: 'approval.granted', filter: { approved: [true] } });

  const pending = await tp.request({ url: `/api/admin/executions/${executionId}/pending-events`, token: tenant.token });
  t.same(pending.body, { workflow_id: executionId, pending_events: ['approval.granted'] }, 'it waits for approval.granted');

  const other = await postSigned(tp, { secret, eventType: 'approval.denied', body: { tenant_id: 'rs-e2e', workflow_id: executionId } });
  t.equal(other.status, 202, 'a signal of another type is delivered too');
  const unmatched = await postSigned(tp, {
    secret, eventType: 'approval.granted', body: { tenant_id: 'rs-e2e', workflow_id: executionId, event_data: { approved: false } },
  });
  t.equal(unmatched.status, 202, 'and one the filter refuses');
  const waiting = await execution(tp, tenant.token, executionId);
  t.equal(waiting.status, 'waiting', '202 means delivered, not matched: the execution still waits');
  t.equal(waiting.buffered_signals, 2, 'both are buffered for later waits');

  const before = Math.floor(Date.now() / 1000);
  const resumed = await postSigned(tp, {
    secret, eventType: 'approval.granted',
    body: { tenant_id: 'rs-e2e', workflow_id: executionId, event_data: { approved: true, by: 'ann' } },
  });
  t.equal(resumed.status, 202);
  t.same(resumed.body, { status: 'delivered', workflow_id: executionId });

  await until(async () => (await execution(tp, tenant.token, executionId)).status === 'completed', 'the execution to complete');
  const done = await execution(tp, tenant.token, executionId);
  t.match(done.context.approval, {
    output: { approved: true, by: 'ann' }, event_type: 'approval.granted', source: 'signal', sender: 'webhook', received_at: /^\d+$/,
  }, 'the wait result names the webhook as sender');
  t.ok(Number(done.context.approval.received_at) >= before, 'received_at is Unix seconds');
  const after = await tp.request({ url: `/api/admin/executions/${executionId}/pending-events`, token: tenant.token });
  t.same(after.body.pending_events, [], 'nothing is pending once it completed');

  const late = await postSigned(tp, { secret, body: { tenant_id: 'rs-e2e', workflow_id: executionId } });
  t.equal(late.status, 404, 'a signal to an ended execution');
  t.equal(late.body.message, `Workflow not found: ${executionId}`);
  const unknown = randomUUID();
  const missing = await postSigned(tp, { secret, body: { tenant_id: 'rs-e2e', workflow_id: unknown } });
  t.equal(missing.status, 404, 'and to one that never existed');
  t.equal(missing.body.message, `Workflow not found: ${unknown}`);
  const notAnId = await postSigned(tp, { secret, body: { tenant_id: 'rs-e2e', workflow_id: 'not-an-execution-id' } });
  t.equal(notAnId.body.message, 'Workflow not found: not-an-execution-id', 'an id of any shape is simply not found');
});

t.test('idempotency: an X-Webhook-Id is kept only when its signal was delivered', async (t) => {
  const tp = await startWebhooksPlatform(t, { listen: true });
  const a = await tenantWithAdmin(tp, 'rs-idem-a');
  const b = await tenantWithAdmin(tp, 'rs-idem-b');
  const secretA = await signingSecretOf(tp, a.token);
  const secretB = await signingSecretOf(tp, b.token);
  const executionA = await waitingExecution(tp, a.token, { eventType: 'never.sent' });
  const executionB = await waitingExecution(tp, b.token, { eventType: 'never.sent' });
  const body = { tenant_id: 'rs-idem-a', workflow_id: executionA };

  const first = await postSigned(tp, { secret: secretA, body, id: 'delivery-1' });
  t.equal(first.status, 202);
  const replay = await postSigned(tp, { secret: secretA, body, id: 'delivery-1' });
  t.equal(replay.status, 409, 'the same id again, freshly signed and timestamped');
  t.equal(replay.body.message, 'Duplicate webhook');
  const otherBody = await postSigned(tp, { secret: secretA, body: { ...body, event_data: { n: 2 } }, id: 'delivery-1' });
  t.equal(otherBody.status, 409, 'whatever the body');
  t.equal((await execution(tp, a.token, executionA)).buffered_signals, 1, 'the duplicates delivered nothing');

  const elsewhere = await postSigned(tp, { secret: secretB, body: { tenant_id: 'rs-idem-b', workflow_id: executionB }, id: 'delivery-1' });
  t.equal(elsewhere.status, 202, 'ids are per tenant');

  const lost = await postSigned(tp, { secret: secretA, body: { ...body, workflow_id: randomUUID() }, id: 'delivery-2' });
  t.equal(lost.status, 404, 'a signal to an unknown execution');
  const retried = await postSigned(tp, { secret: secretA, body, id: 'delivery-2' });
  t.equal(retried.status, 202, 'does not use up its id');

  const unsigned = await postSigned(tp, { secret: 'wrong', body, id: 'delivery-3' });
  t.equal(unsigned.status, 401);
  const stale = await postSigned(tp, { secret: secretA, body, id: 'delivery-3', timestamp: Math.floor(Date.now() / 1000) - 600 });
  t.equal(stale.status, 401);
  t.equal((await postSigned(tp, { secret: secretA, body, id: 'delivery-3' })).status, 202, 'nor does a request refused before idempotency');

  const recorded = await tp.platform.core.withTenant('rs-idem-a', (trx) =>
    trx.selectFrom('webhook_deliveries').select(['scope', 'webhook_id']).orderBy('webhook_id').execute());
  t.same(recorded, [
    { scope: 'resume', webhook_id: 'delivery-1' },
    { scope: 'resume', webhook_id: 'delivery-2' },
    { scope: 'resume', webhook_id: 'delivery-3' },
  ], 'one record per delivered id, in Postgres');
});

t.test('rate limit: the 61st request in a minute is refused and consumes nothing', async (t) => {
  const tp = await startWebhooksPlatform(t, { listen: true });
  const tenant = await tenantWithAdmin(tp, 'rs-rate');
  const neighbour = await tenantWithAdmin(tp, 'rs-rate-2');
  const secret = await signingSecretOf(tp, tenant.token);
  const neighbourSecret = await signingSecretOf(tp, neighbour.token);
  const executionId = await waitingExecution(tp, tenant.token, { eventType: 'never.sent' });
  const neighbourExecution = await waitingExecution(tp, neighbour.token, { eventType: 'never.sent' });
  const body = { tenant_id: 'rs-rate', workflow_id: executionId };

  // The budget is per calendar minute: start early in one so that all 61 fall in it.
  // (plugins/webhooks/test/resume-clock.test.ts covers the windows with a driven clock.)
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));

  const statuses: number[] = [];
  for (let i = 0; i < 60; i++) statuses.push((await postSigned(tp, { secret, body, id: `r-${i}` })).status);
  t.same(new Set(statuses), new Set([202]), '60 requests in the minute are accepted');
  const refused = await postSigned(tp, { secret, body, id: 'r-60' });
  t.equal(refused.status, 429, 'the 61st is refused');
  t.equal(refused.body.message, 'Rate limit exceeded');
  const retryAfter = Number(refused.headers['retry-after']);
  t.ok(retryAfter >= 1 && retryAfter <= 60, `with Retry-After (${retryAfter} s, until the next minute)`);

  const duplicate = await postSigned(tp, { secret, body, id: 'r-0' });
  t.equal(duplicate.status, 409, 'a duplicate is answered by the earlier check, idempotency');
  const neighbourOk = await postSigned(tp, { secret: neighbourSecret, body: { tenant_id: 'rs-rate-2', workflow_id: neighbourExecution } });
  t.equal(neighbourOk.status, 202, 'another tenant has its own budget');

  t.equal((await execution(tp, tenant.token, executionId)).buffered_signals, 60, 'exactly 60 signals were delivered');
  const window = await tp.platform.core.withTenant('rs-rate', (trx) => trx.selectFrom('webhook_rate').select('count').execute());
  t.same(window, [{ count: 60 }], 'the refused request did not count');
  const kept = await tp.platform.core.withTenant('rs-rate', (trx) =>
    trx.selectFrom('webhook_deliveries').select('webhook_id').where('webhook_id', '=', 'r-60').execute());
  t.same(kept, [], 'nor keep its id: it can be sent again next minute');
});

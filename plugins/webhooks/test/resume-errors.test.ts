// Signed resume: every row of the error table (plugin README), with its
// status and detail text, and the check order — payload validity, size,
// signature, timestamp, idempotency, rate limit — shown by requests that fail
// several checks at once and must be answered by the earliest.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import { signBody } from '../signing/signing.ts';
import { nowSeconds, postSigned, signingSecretOf, startWebhooksPlatform } from './helpers.ts';

const MB = 1024 * 1024;

type Asserts = Pick<typeof t, 'equal' | 'type'>;

function expectError(t: Asserts, response: { status: number; body: any }, status: number, message: string, what: string) {
  t.equal(response.status, status, `${what}: ${status}`);
  t.equal(response.body.message, message, `${what}: "${message}"`);
  t.equal(response.body.statusCode, status, `${what}: the body is the platform's error body`);
  t.type(response.body.error, 'string');
}

/** A JSON body of exactly `size` bytes (the padding goes into event_data). */
function bodyOfSize(base: { tenant_id: string; workflow_id: string }, size: number): string {
  const empty = JSON.stringify({ ...base, event_data: { pad: '' } });
  return JSON.stringify({ ...base, event_data: { pad: 'x'.repeat(size - empty.length) } });
}

t.test('each error of the table, in check order', async (t) => {
  const tp = await startWebhooksPlatform(t);
  const tenant = await tenantWithAdmin(tp, 'rs-errors');
  const secret = await signingSecretOf(tp, tenant.token);
  const workflowId = randomUUID();
  const body = { tenant_id: 'rs-errors', workflow_id: workflowId, event_data: { approved: true } };
  const stale = nowSeconds() - 301;

  await t.test('422 Invalid request body: payload validity comes first', async (t) => {
    const bad = (raw: string, what: string) =>
      postSigned(tp, { secret, raw, signature: 'sha256=00', timestamp: stale, id: null }).then((r) => expectError(t, r, 422, 'Invalid request body', what));
    await bad('{"tenant_id": "rs-errors", ', 'malformed JSON with a bad signature, a stale timestamp and no id');
    await bad('', 'an empty body');
    await bad(JSON.stringify([body]), 'an array');
    await bad(JSON.stringify({ workflow_id: workflowId }), 'tenant_id missing');
    await bad(JSON.stringify({ tenant_id: 'rs-errors' }), 'workflow_id missing');
    await bad(JSON.stringify({ tenant_id: 'RS errors!', workflow_id: workflowId }), 'a tenant_id that is no tenant alias');
    await bad(JSON.stringify({ ...body, event_data: ['x'] }), 'event_data not an object');
    await bad(JSON.stringify({ ...body, workflow_id: 42 }), 'workflow_id not a string');
    await bad(JSON.stringify({ ...body, extra: 1 }), 'an unknown field');
    const malformedOversize = `{"tenant_id": "rs-errors", "pad": "${'x'.repeat(MB)}`;
    await bad(malformedOversize, 'malformed JSON just over 1 MB (validity before size)');
  });

  await t.test('413 Payload too large (max 1MB): size before signature', async (t) => {
    const oversize = bodyOfSize(body, MB + 1);
    t.equal(Buffer.byteLength(oversize), MB + 1);
    expectError(t, await postSigned(tp, { secret, raw: oversize, signature: 'sha256=00', timestamp: stale, id: null }), 413,
      'Payload too large (max 1MB)', '1 MB + 1 byte, badly signed, stale, no id');
    expectError(t, await postSigned(tp, { secret, raw: oversize }), 413, 'Payload too large (max 1MB)', '1 MB + 1 byte, well signed');
    const huge = bodyOfSize(body, 3 * MB);
    expectError(t, await postSigned(tp, { secret, raw: huge, signature: 'sha256=00' }), 413, 'Payload too large (max 1MB)',
      '3 MB (hapi stops reading, same answer)');
    const exact = bodyOfSize(body, MB);
    t.equal(Buffer.byteLength(exact), MB);
    expectError(t, await postSigned(tp, { secret, raw: exact }), 404, `Workflow not found: ${workflowId}`, 'exactly 1 MB passes every check');
  });

  await t.test('401 Invalid signature: signature before timestamp', async (t) => {
    const raw = JSON.stringify(body);
    const invalid = (options: Parameters<typeof postSigned>[1], what: string) =>
      postSigned(tp, { raw, ...options }).then((r) => expectError(t, r, 401, 'Invalid signature', what));
    await invalid({ secret, signature: signBody('another-secret', raw), timestamp: stale, id: null }, 'wrong secret, stale timestamp, no id');
    await invalid({ secret, signature: null }, 'no signature header');
    await invalid({ secret, signature: signBody(secret, raw).slice('sha256='.length) }, 'hex without the sha256= prefix');
    await invalid({ secret, signature: `sha1=${signBody(secret, raw).slice(7, 47)}` }, 'another algorithm');
    await invalid({ secret, signature: 'sha256=zz' }, 'not hex');
    await invalid({ secret, signature: signBody(secret, JSON.stringify(body, null, 2)) }, 'signed over other bytes of the same JSON');
    await invalid({ secret: 'shared-but-unset', signature: signBody('shared-but-unset', raw) }, 'a shared secret while WEBHOOK_SECRET is unset');
    expectError(t, await postSigned(tp, { secret, raw, signature: signBody(secret, raw).toUpperCase().replace('SHA256=', 'sha256=') }),
      404, `Workflow not found: ${workflowId}`, 'upper-case hex is the same signature');
  });

  await t.test('401 Timestamp too old / Timestamp is in the future: timestamp before idempotency', async (t) => {
    const tooOld = (timestamp: number | string | null, what: string) =>
      postSigned(tp, { secret, body, timestamp, id: null }).then((r) => expectError(t, r, 401, 'Timestamp too old', what));
    await tooOld(stale, '301 s old, no id');
    await tooOld(null, 'missing');
    await tooOld('yesterday', 'not a number');
    await tooOld('1.5e9', 'not an integer');
    expectError(t, await postSigned(tp, { secret, body, timestamp: nowSeconds() + 301, id: null }), 401, 'Timestamp is in the future', '301 s ahead, no id');
    expectError(t, await postSigned(tp, { secret, body, timestamp: Date.now() }), 401, 'Timestamp is in the future', 'milliseconds instead of seconds');
    for (const skew of [-295, 295]) {
      expectError(t, await postSigned(tp, { secret, body, timestamp: nowSeconds() + skew }), 404, `Workflow not found: ${workflowId}`,
        `${skew} s is within the window`);
    }
  });

  await t.test('400 Missing webhook id: after authentication, with idempotency', async (t) => {
    expectError(t, await postSigned(tp, { secret, body, id: null }), 400, 'Missing webhook id', 'no X-Webhook-Id');
    expectError(t, await postSigned(tp, { secret, body, id: '   ' }), 400, 'Missing webhook id', 'a blank X-Webhook-Id');
    const long = await postSigned(tp, { secret, body, id: 'x'.repeat(256) });
    t.equal(long.status, 400, 'an id over 255 characters is refused');
    t.equal(long.body.code, 'WEBHOOK_ID_INVALID');
  });

  await t.test('404 Workflow not found: {id}', async (t) => {
    expectError(t, await postSigned(tp, { secret, body }), 404, `Workflow not found: ${workflowId}`, 'an execution that does not exist');
    const otherTenant = await tenantWithAdmin(tp, 'rs-other');
    const otherSecret = await signingSecretOf(tp, otherTenant.token);
    const foreign = { ...body, tenant_id: 'rs-other' };
    expectError(t, await postSigned(tp, { secret: otherSecret, body: foreign }), 404, `Workflow not found: ${workflowId}`,
      'the tenant\'s secret signs only its own executions');
    expectError(t, await postSigned(tp, { secret, body: foreign }), 401, 'Invalid signature', 'one tenant\'s secret does not sign for another');
  });
});

t.test('the shared WEBHOOK_SECRET never signs a resume: only the tenant\'s own secret does', async (t) => {
  const shared = 'shared-webhook-secret-for-tests';
  const tp = await startWebhooksPlatform(t, { env: { WEBHOOK_SECRET: shared } });
  const tenant = await tenantWithAdmin(tp, 'rs-shared');
  const workflowId = randomUUID();
  const body = { tenant_id: 'rs-shared', workflow_id: workflowId };

  expectError(t, await postSigned(tp, { secret: shared, body }), 401, 'Invalid signature', 'a tenant without its own secret: the shared one is refused');
  expectError(t, await postSigned(tp, { secret: shared, body: { ...body, tenant_id: 'rs-nobody' } }), 401, 'Invalid signature',
    'an unknown tenant: the same 401, so nothing tells whether it exists');

  const event = await tp.request({
    method: 'POST', url: '/api/webhooks/events/rs-shared/anything', payload: '{"ok":true}',
    headers: { 'content-type': 'application/json', 'x-webhook-secret': shared },
  });
  t.equal(event.status, 202, 'the event receiver keeps the spec\'s shared-secret fallback');

  const own = await signingSecretOf(tp, tenant.token);
  expectError(t, await postSigned(tp, { secret: shared, body }), 401, 'Invalid signature', 'with its own secret, the shared one is still refused');
  expectError(t, await postSigned(tp, { secret: own, body }), 404, `Workflow not found: ${workflowId}`, 'and its own is accepted');
});

t.test('signing secret: created once, rotated, admin only, never shown again', async (t) => {
  const tp = await startWebhooksPlatform(t, { captureLogs: true });
  const tenant = await tenantWithAdmin(tp, 'rs-rotate');
  const member = await tp.request({
    method: 'POST', url: '/api/admin/users', token: tenant.token, payload: { sub: 'rs-member', display_name: 'Member' },
  });
  t.equal(member.status, 201);
  const memberToken = (await tp.request({ method: 'POST', url: '/api/admin/users/rs-member/tokens', token: tenant.token })).body.access_token;
  const byMember = await tp.request({ method: 'POST', url: '/api/admin/webhooks/signing-secret', token: memberToken });
  t.equal(byMember.status, 403, 'a member without the admin role cannot create it');
  t.equal(byMember.body.code, 'ROLE_REQUIRED');

  const before = await tp.request({ url: '/api/admin/webhooks/signing-secret', token: tenant.token });
  t.same(before.body, { configured: false, created_at: null, rotated_at: null });

  const created = await tp.request({ method: 'POST', url: '/api/admin/webhooks/signing-secret', token: tenant.token });
  t.equal(created.status, 201, 'the first call creates it');
  t.match(created.body.secret, /^[0-9a-f]{64}$/);
  t.equal(created.body.rotated_at, null);
  const first = created.body.secret as string;

  const status = await tp.request({ url: '/api/admin/webhooks/signing-secret', token: tenant.token });
  t.equal(status.body.configured, true);
  t.notOk('secret' in status.body, 'the status never shows the secret');

  const workflowId = randomUUID();
  const body = { tenant_id: 'rs-rotate', workflow_id: workflowId };
  t.equal((await postSigned(tp, { secret: first, body })).status, 404, 'the first secret signs');

  const rotated = await tp.request({ method: 'POST', url: '/api/admin/webhooks/signing-secret', token: tenant.token });
  t.equal(rotated.status, 200, 'a second call rotates it');
  t.not(rotated.body.secret, first);
  t.type(rotated.body.rotated_at, 'string');
  expectError(t, await postSigned(tp, { secret: first, body }), 401, 'Invalid signature', 'the old secret is invalid at once');
  t.equal((await postSigned(tp, { secret: rotated.body.secret, body })).status, 404, 'the new one signs');

  const stored = await tp.platform.core.withTenant('rs-rotate', (trx) => trx.selectFrom('webhook_signing_secrets').select('sealed_secret').executeTakeFirstOrThrow());
  t.notOk(stored.sealed_secret.includes(rotated.body.secret), 'the secret is sealed at rest');
  t.notOk(tp.logs.join('\n').includes(rotated.body.secret), 'and never logged');
});

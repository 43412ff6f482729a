// The reconcile webhook is a Standard Webhooks message applied once: a
// captured request sent again is refused (409), in another process too; a
// timestamp more than 5 minutes from now is refused (401); the body-only
// signature is no longer accepted; refused messages change nothing.
import t from 'tap';
import { signStandardWebhook, standardWebhookHeaders } from 'agent-platform/sdk';
import { startTestPlatform, type TestPlatform } from 'agent-platform/sdk/testing';
import { signBody } from '../../webhooks/signing/signing.ts';
import { stored } from './helpers.ts';

const WEBHOOK = 'pattern-webhook-secret-0123456789';
const MINUTE = 60_000;

function send(tp: TestPlatform, headers: Record<string, string>, raw: string) {
  return tp.request({ method: 'POST', url: '/api/v1/patterns/reconcile', headers, payload: raw });
}

const listed = async (tp: TestPlatform) => (await stored(tp, 'SELECT id FROM pipeline_pattern_registrations ORDER BY id')).map((row) => row.id as string);

t.test('a replayed message is refused, by another process too; stale and future timestamps are refused; a fresh one works', async (t) => {
  const tp = await startTestPlatform(t, { env: { PATTERN_WEBHOOK_SECRET: WEBHOOK } });
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  const both = JSON.stringify({ patterns: [{ id: 'files_a', base_pattern: 'csv', name: 'A' }, { id: 'files_b', base_pattern: 'csv', name: 'B' }] });
  const first = standardWebhookHeaders(WEBHOOK, both, { id: 'msg_first', timestamp: nowSeconds() });
  const applied = await send(tp, first, both);
  t.equal(applied.status, 200, JSON.stringify(applied.body));
  t.same(applied.body, { upserted: ['files_a', 'files_b'], removed: [] }, 'a fresh, signed message works');

  const onlyA = JSON.stringify({ patterns: [{ id: 'files_a', base_pattern: 'csv', name: 'A' }] });
  t.same((await send(tp, standardWebhookHeaders(WEBHOOK, onlyA, { id: 'msg_second', timestamp: nowSeconds() }), onlyA)).body, { upserted: ['files_a'], removed: ['files_b'] });

  // The captured first message, sent again as it was: it would bring files_b back.
  const replayed = await send(tp, first, both);
  t.same([replayed.status, replayed.body.code], [409, 'PATTERN_WEBHOOK_REPLAYED']);
  t.same(await listed(tp), ['files_a'], 'the replay changed nothing');

  // The same captured message to a second process on the same database.
  const other = await startTestPlatform(t, {
    databaseUrl: tp.databaseUrl, env: { PATTERN_WEBHOOK_SECRET: WEBHOOK, PLATFORM_MASTER_KEY: tp.env.PLATFORM_MASTER_KEY, ADMIN_TOKEN: tp.env.ADMIN_TOKEN },
  });
  const elsewhere = await send(other, first, both);
  t.same([elsewhere.status, elsewhere.body.code], [409, 'PATTERN_WEBHOOK_REPLAYED'], 'the ids are kept in PostgreSQL');

  // A new id on the captured signature: the id is signed.
  const renamed = await send(tp, { ...first, 'webhook-id': 'msg_renamed' }, both);
  t.same([renamed.status, renamed.body.code], [401, 'PATTERN_SIGNATURE_INVALID']);
  // A fresh timestamp on the captured signature: the timestamp is signed.
  const retimed = await send(tp, { ...first, 'webhook-timestamp': String(nowSeconds() + 1) }, both);
  t.same([retimed.status, retimed.body.code], [401, 'PATTERN_SIGNATURE_INVALID']);

  for (const [label, timestamp] of [['six minutes old', nowSeconds() - 6 * 60], ['six minutes ahead', nowSeconds() + 6 * 60]] as const) {
    const refused = await send(tp, standardWebhookHeaders(WEBHOOK, both, { id: `msg_${label.replaceAll(' ', '_')}`, timestamp }), both);
    t.same([refused.status, refused.body.code], [401, 'PATTERN_WEBHOOK_TIMESTAMP_INVALID'], label);
  }

  // The body-only signature (replayable) is refused.
  const bodyOnly = await send(tp, { 'content-type': 'application/json', 'x-pattern-signature': signBody(WEBHOOK, both) }, both);
  t.same([bodyOnly.status, bodyOnly.body.code], [401, 'PATTERN_SIGNATURE_INVALID']);
  t.same(await listed(tp), ['files_a'], 'no refused message changed anything');
  t.same((await stored(tp, 'SELECT id FROM pipeline_pattern_webhook_ids ORDER BY id')).map((row) => row.id), ['msg_first', 'msg_second'], 'only accepted ids are kept');
});

t.test('a message refused for its list leaves its id unused; expired ids are pruned', async (t) => {
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };
  const tp = await startTestPlatform(t, { env: { PATTERN_WEBHOOK_SECRET: WEBHOOK }, services: { clock } });
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

  const invalid = JSON.stringify({ patterns: [{ id: 'files_a', base_pattern: 'nothing', name: 'A' }] });
  const refused = await send(tp, standardWebhookHeaders(WEBHOOK, invalid, { id: 'msg_one', timestamp: nowSeconds() }), invalid);
  t.same([refused.status, refused.body.code], [400, 'PATTERN_BASE_UNKNOWN']);
  const valid = JSON.stringify({ patterns: [{ id: 'files_a', base_pattern: 'csv', name: 'A' }] });
  const timestamp = nowSeconds();
  t.equal((await send(tp, standardWebhookHeaders(WEBHOOK, valid, { id: 'msg_one', timestamp }), valid)).status, 200, 'the sender\'s corrected message under the same id');

  // Under Standard Webhooks a secret may also be given as whsec_<base64>.
  const whsec = `whsec_${Buffer.from(WEBHOOK).toString('base64')}`;
  const headers = { 'content-type': 'application/json', 'webhook-id': 'msg_two', 'webhook-timestamp': String(timestamp), 'webhook-signature': `v2,xyz ${signStandardWebhook(whsec, 'msg_two', timestamp, valid)}` };
  t.equal((await send(tp, headers, valid)).status, 200, 'signed with the whsec_ form, among signatures of other versions');

  offsetMs = 6 * MINUTE;
  t.equal((await send(tp, standardWebhookHeaders(WEBHOOK, valid, { id: 'msg_three', timestamp: nowSeconds() }), valid)).status, 200);
  t.same((await stored(tp, 'SELECT id FROM pipeline_pattern_webhook_ids')).map((row) => row.id), ['msg_three'], 'the ids whose timestamps left the window are gone');
});

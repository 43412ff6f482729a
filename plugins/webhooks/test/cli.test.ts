// The webhooks CLI: create, rotate, list and the signing secret against the
// database, and `webhooks sign`, which needs no database and prints headers
// that the server accepts.
import t from 'tap';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';
import { signBody } from '../signing/signing.ts';
import { MANIFEST, startWebhooksPlatform, waitingExecution } from './helpers.ts';

const cli = (env: Record<string, string | undefined>, args: string[]) => runCli(args, { env: { PLATFORM_MANIFEST: MANIFEST, ...env } });

const databaseEnv = (tp: TestPlatform) => ({ DATABASE_URL: tp.databaseUrl, PLATFORM_MASTER_KEY: tp.env.PLATFORM_MASTER_KEY });

async function cliJson(t: Pick<typeof import('tap').default, 'equal' | 'comment'>, env: Record<string, string | undefined>, args: string[]) {
  const result = await cli(env, [...args, '--json']);
  t.equal(result.code, 0, `platform ${args.join(' ')} exits 0`);
  if (result.code !== 0) t.comment(result.stderr);
  return JSON.parse(result.stdout);
}

t.test('webhooks sign prints the headers, without a database', async (t) => {
  const dataDir = path.join(await mkdtemp(path.join(tmpdir(), 'wh-cli-')), 'data');
  const offline = { DATABASE_URL: '', PLATFORM_DATA_DIR: dataDir };
  const body = '{"tenant_id":"acme","workflow_id":"42"}';
  const headers = await cliJson(t, offline, ['webhooks', 'sign', '--secret', 's3cret', '--body', body, '--id', 'evt-1', '--timestamp', '1700000000']);
  t.same(headers, {
    'Content-Type': 'application/json',
    'X-Webhook-Signature': signBody('s3cret', body),
    'X-Webhook-Timestamp': '1700000000',
    'X-Webhook-Id': 'evt-1',
  });
  await t.rejects(readdir(dataDir), 'no embedded database was started (its data dir does not exist)');

  const file = path.join(path.dirname(dataDir), 'body.json');
  await writeFile(file, `${body}\n`);
  const fromFile = await cliJson(t, offline, ['webhooks', 'sign', '--secret', 's3cret', '--body', `@${file}`]);
  t.equal(fromFile['X-Webhook-Signature'], signBody('s3cret', `${body}\n`), '--body @file signs the file\'s exact bytes');
  t.match(fromFile['X-Webhook-Id'], /^[0-9a-f-]{36}$/, 'a new id by default');
  t.ok(Math.abs(Number(fromFile['X-Webhook-Timestamp']) - Date.now() / 1000) < 60, 'and the current time');

  const text = await cli(offline, ['webhooks', 'sign', '--secret', 's3cret', '--body', body, '--id', 'evt-1', '--timestamp', '1700000000']);
  t.match(text.stdout, `X-Webhook-Signature: ${signBody('s3cret', body)}`, 'without --json, header lines');
  const bad = await cli(offline, ['webhooks', 'sign', '--secret', 's3cret', '--body', body, '--timestamp', 'soon']);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /--timestamp must be Unix seconds/);
});

t.test('webhooks create, list, rotate and signing-secret; sign output accepted by the server', async (t) => {
  const tp = await startWebhooksPlatform(t, { listen: true });
  const tenant = await tenantWithAdmin(tp, 'wh-cli');
  const env = databaseEnv(tp);

  const created = await cliJson(t, env, ['webhooks', 'create', '--tenant', 'wh-cli', '--name', 'ci', '--description', 'from CI']);
  t.match(created, { webhook: { name: 'ci', description: 'from CI' }, secret: /^[0-9a-f]{64}$/ });
  const listed = await cliJson(t, env, ['webhooks', 'list', '--tenant', 'wh-cli']);
  t.same(listed.items.map((w: { name: string }) => w.name), ['ci']);
  t.notOk(JSON.stringify(listed).includes(created.secret));
  const rotated = await cliJson(t, env, ['webhooks', 'rotate', '--tenant', 'wh-cli', '--name', 'ci']);
  t.not(rotated.secret, created.secret);
  const receiver = (secret: string) => tp.request({
    method: 'POST', url: '/api/webhooks/events/wh-cli/ci', headers: { 'x-webhook-secret': secret, 'content-type': 'application/json' }, payload: '{}',
  });
  t.equal((await receiver(created.secret)).status, 401, 'the CLI rotation invalidates the old secret');
  t.equal((await receiver(rotated.secret)).status, 202);

  const signing = await cliJson(t, env, ['webhooks', 'signing-secret', '--tenant', 'wh-cli']);
  t.match(signing, { secret: /^[0-9a-f]{64}$/, created_at: String, rotated_at: null });
  const executionId = await waitingExecution(tp, tenant.token, { eventType: 'deploy.finished' });
  const body = JSON.stringify({ tenant_id: 'wh-cli', workflow_id: executionId, event_data: { ok: true } });
  const headers = await cliJson(t, {}, ['webhooks', 'sign', '--secret', signing.secret, '--body', body]);
  const sent = await tp.request({ method: 'POST', url: '/api/webhooks/deploy.finished', headers, payload: body });
  t.equal(sent.status, 202, 'the printed headers are what the server checks');

  // Standard Webhooks: the raw secret or its whsec_ form, both as printed by `signing-secret`.
  t.equal(signing.standard_secret, `whsec_${Buffer.from(signing.secret, 'utf8').toString('base64')}`, 'the whsec_ form of the secret');
  const stillWaiting = await waitingExecution(tp, tenant.token, { eventType: 'never.sent' });
  const standardBody = JSON.stringify({ tenant_id: 'wh-cli', workflow_id: stillWaiting, event_data: { ok: 'standard' } });
  const standard = await cliJson(t, {}, ['webhooks', 'sign', '--scheme', 'standard', '--secret', signing.standard_secret, '--body', standardBody]);
  t.match(standard, { 'Content-Type': 'application/json', 'webhook-id': /^msg_/, 'webhook-timestamp': /^\d+$/, 'webhook-signature': /^v1,[A-Za-z0-9+/]{43}=$/ });
  t.notOk('X-Webhook-Signature' in standard, 'only the Standard Webhooks headers');
  const sentStandard = await tp.request({ method: 'POST', url: '/api/webhooks/deploy.finished', headers: standard, payload: standardBody });
  t.equal(sentStandard.status, 202, 'the --scheme standard headers verify');
  const again = await tp.request({ method: 'POST', url: '/api/webhooks/deploy.finished', headers: standard, payload: standardBody });
  t.equal(again.status, 409, 'and are accepted once');
  const rawSecret = await cliJson(t, {}, ['webhooks', 'sign', '--scheme', 'standard', '--secret', signing.secret, '--body', standardBody, '--id', 'x', '--timestamp', '1700000000']);
  const whsec = await cliJson(t, {}, ['webhooks', 'sign', '--scheme', 'standard', '--secret', signing.standard_secret, '--body', standardBody, '--id', 'x', '--timestamp', '1700000000']);
  t.equal(rawSecret['webhook-signature'], whsec['webhook-signature'], 'the raw secret and its whsec_ form sign alike');
  const badScheme = await cli({}, ['webhooks', 'sign', '--scheme', 'hmac', '--secret', 's', '--body', '{}']);
  t.equal(badScheme.code, 1);
  t.match(badScheme.stderr, /--scheme must be one of x-webhook, standard/);
});

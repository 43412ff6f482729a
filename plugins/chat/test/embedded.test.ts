// The embedded default (no DATABASE_URL: PGlite in-process) with chat loaded:
// `platform serve` boots, and with no LLM configured a question is answered
// by the offline responder, with nothing reaching the network (a preload
// refuses and reports any non-loopback connection). With a model on loopback,
// streaming, ask_user (suspend, keyed timeout job, answer) and cancel work on
// PGlite too: one backend session, no NOTIFY, no advisory locks. Each server
// starts on a copy of its manifest's migrated template (built by migrating
// PGlite once per run): what is proved is what comes after the first start.
import t, { type Test } from 'tap';
import { call, serveFresh } from '../../../test/embedded-serve.ts';
import { ScriptedLlm, textChunks, toolCallChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { multipart } from '../../ingestion/test/helpers.ts';
import { parseSse, textOf, until } from './helpers.ts';

/** `platform serve` on a copy of the migrated template of the chat manifest, refusing any connection that leaves loopback. */
function serve(t: Test, env: Record<string, string>, manifest = 'test/fixtures/manifests/chat-embedded.yaml') {
  return serveFresh(t, { env: { PLATFORM_MANIFEST: manifest, ...env }, noNetwork: true, from: 'migrated-template' });
}

/** A tenant, its admin user and token, and a client: over HTTP, as an operator would. */
async function tenantSetup(t: Test, base: string, adminToken: string) {
  t.equal((await call(base, '/api/admin/tenants', { method: 'POST', token: adminToken, body: { id: 'acme' } })).status, 201);
  t.equal((await call(base, '/api/admin/users', {
    method: 'POST', token: adminToken, body: { sub: 'ann', display_name: 'Ann', organizations: ['acme'], roles: ['admin'] },
  })).status, 201);
  const token = (await call(base, '/api/admin/users/ann/tokens', { method: 'POST', token: adminToken })).body.access_token as string;
  const client = await call(base, '/api/admin/clients', { method: 'POST', token, body: { name: 'web' } });
  t.equal(client.status, 201);
  return token;
}

t.test('embedded default with no model: boots, answers with the offline responder, reaches no network', async (t) => {
  const served = await serve(t, {});
  const token = await tenantSetup(t, served.base, served.token);
  const session = await call(served.base, '/api/sessions', { method: 'POST', token, body: {} });
  t.equal(session.status, 201);
  const answer = await call(served.base, `/api/chat/${session.body.id}`, { method: 'POST', token, body: { content: 'What is our refund policy?' } });
  t.equal(answer.status, 200);
  t.match(answer.contentType, /^text\/event-stream/);
  const frames = parseSse(answer.text);
  t.match(textOf(frames), /No language model is configured and none of your documents matches/);
  t.equal(frames.at(-1)!.status, 'completed');
  const messages = await call(served.base, `/api/sessions/${session.body.id}/messages`, { token });
  t.same(messages.body.items.map((m: any) => m.role), ['user', 'assistant']);
  t.same(messages.body.items[1].tool_metadata.responder, { kind: 'extractive', sources: 0 });
  t.notMatch(served.output(), /NETWORK-ATTEMPT/, 'no connection left loopback');
});

t.test('embedded default with a model on loopback: stream, ask_user, cancel', async (t) => {
  const llm = await new ScriptedLlm().start();
  t.teardown(() => llm.stop());
  const served = await serve(t, { LLM_BASE_URL: llm.baseUrl });
  const token = await tenantSetup(t, served.base, served.token);
  const session = (await call(served.base, '/api/sessions', { method: 'POST', token, body: {} })).body.id as string;

  llm.enqueue({ chunks: textChunks('Hello from PGlite.') });
  const plain = parseSse((await call(served.base, `/api/chat/${session}`, { method: 'POST', token, body: { content: 'hi' } })).text);
  t.equal(textOf(plain), 'Hello from PGlite.');
  t.equal(plain.at(-1)!.status, 'completed');

  llm.enqueue({ chunks: toolCallChunks('q1', 'ask_user', { question: 'Which year?' }) }, { chunks: textChunks('2025 it is.') });
  const asked = parseSse((await call(served.base, `/api/chat/${session}`, { method: 'POST', token, body: { content: 'sales?', capability_keys: ['ask_user'] } })).text);
  t.match(asked.find((f) => f.type === 'tool_status'), { status: 'awaiting_input', question: 'Which year?' });
  t.equal(asked.at(-1)!.status, 'awaiting_input');
  const answered = await call(served.base, `/api/chat/${session}/human-input`, { method: 'POST', token, body: { tool_call_id: 'q1', answer: '2025' } });
  t.equal(answered.status, 200);
  t.equal(textOf(parseSse(answered.text)), '2025 it is.');

  llm.enqueue({ chunks: textChunks('word '.repeat(400), 5), delayMs: 10, hold: true });
  const streaming = fetch(`${served.base}/api/chat/${session}`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ content: 'long' }),
  }).then((res) => res.text());
  await until(async () => llm.requests.length === 4 && llm.requests[3].written > 3, 'the long answer to stream', 30_000);
  const cancelled = await call(served.base, `/api/chat/${session}/cancel`, { method: 'POST', token });
  t.equal(cancelled.body.status, 'stopped');
  const frames = parseSse(await streaming);
  t.equal(frames.at(-1)!.status, 'stopped');
  await llm.requests[3].finished;
  t.equal(llm.requests[3].closedByClient, true, 'the model request was aborted');
  t.notMatch(served.output(), /NETWORK-ATTEMPT/, 'no connection left loopback');
});

t.test('embedded default with the document plugins and no model: an uploaded document is quoted with verified citations', async (t) => {
  const served = await serve(t, {}, 'test/fixtures/manifests/chat-embedded-documents.yaml');
  const token = await tenantSetup(t, served.base, served.token);
  const collection = await call(served.base, '/api/admin/collections', { method: 'POST', token, body: { name: 'policies' } });
  t.equal(collection.status, 201, JSON.stringify(collection.body));
  // A browser would send this file as text/plain; the ingestion route takes it as application/octet-stream (its own tests' form).
  const { payload, headers } = multipart([{ name: 'file', filename: 'policy.txt', content: 'Refund policy.\n\nRefunds are granted within 30 days of purchase when the item is unused.\n' }]);
  const uploaded = await fetch(`${served.base}/api/admin/collections/${collection.body.collection_id}/documents`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers }, body: new Uint8Array(payload),
  });
  const document = await uploaded.json() as { document_id: string };
  t.equal(uploaded.status, 202, JSON.stringify(document));
  const status = await until(async () => {
    const r = await call(served.base, `/api/admin/documents/${document.document_id}/ingestion-status`, { token });
    return ['ready', 'error'].includes(r.body.ingestion_status) ? r.body : undefined;
  }, 'the document to be ingested', 120_000);
  t.equal(status.ingestion_status, 'ready', JSON.stringify(status));

  const session = (await call(served.base, '/api/sessions', { method: 'POST', token, body: {} })).body.id as string;
  const frames = parseSse((await call(served.base, `/api/chat/${session}`, { method: 'POST', token, body: { content: 'refunds within 30 days' } })).text);
  t.match(textOf(frames), /Extractive answer/);
  t.match(textOf(frames), /Refunds are granted within 30 days/);
  t.match(frames.find((f) => f.type === 'citations')?.citations, [{ doc_name: 'policy.txt', verification_status: 'verified', match_type: 'exact' }]);
  t.equal(frames.at(-1)!.status, 'completed');
  t.notMatch(served.output(), /NETWORK-ATTEMPT/, 'no connection left loopback');
});

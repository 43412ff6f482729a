// Chat in the graph, as a consumer reads it: one chat answer's citations in
// one query (a model searches an uploaded document and cites it; the
// citations name the stored answer), a session's messages paged backwards
// with totalCount, and access exactly as REST's sessions routes: another
// member's or another tenant's session is null, an API key sees only its
// visitor's sessions on its own client (X-Visitor-Id required, as REST), and
// a citation's message stays with the session's owner.
import t from 'tap';
import { tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';
import { textChunks, toolCallChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { apiKey } from '../../citations/test/helpers.ts';
import { multipart } from '../../ingestion/test/helpers.ts';
import { ask, chatFixture, member, newSession, until } from './helpers.ts';

const MANIFEST = 'test/fixtures/manifests/chat-documents.yaml';
const DOC = 'Refund policy.\n\nRefunds are granted within 30 days of purchase when the item is unused.\n\nShipping is free above 50 euros.';
const QUOTE = 'Refunds are granted within 30 days of purchase';

type Auth = { token?: string; apiKey?: string; tenant?: string; headers?: Record<string, string> };

async function gql(tp: TestPlatform, query: string, auth: Auth) {
  const response = await tp.request({ method: 'POST', url: '/graphql', payload: { query }, ...auth });
  return response as { status: number; body: any };
}

async function ingest(tp: TestPlatform, token: string) {
  const collection = await tp.request({ method: 'POST', url: '/api/admin/collections', token, payload: { name: 'policies' } });
  const { payload, headers } = multipart([{ name: 'file', filename: 'policy.txt', content: DOC }]);
  const uploaded = await tp.request({ method: 'POST', url: `/api/admin/collections/${collection.body.collection_id}/documents`, token, payload, headers });
  if (uploaded.status !== 202) throw new Error(`upload: ${JSON.stringify(uploaded.body)}`);
  await until(async () => {
    const status = await tp.request({ url: `/api/admin/documents/${uploaded.body.document_id}/ingestion-status`, token });
    if (status.body.ingestion_status === 'error') throw new Error(`ingestion: ${JSON.stringify(status.body)}`);
    return status.body.ingestion_status === 'ready';
  }, 'the document to be ingested', 120_000);
}

t.test('one chat answer\'s citations in one query; messages paged backwards', async (t) => {
  const { tp, llm, token, tenant } = await chatFixture(t, { manifest: MANIFEST });
  await ingest(tp, token);
  const session = await newSession(tp, token);
  llm!.enqueue({ chunks: textChunks('Ask me about refunds.') });
  t.equal((await ask(tp, token, session, 'Hello')).frames.at(-1)!.status, 'completed');
  llm!.enqueue({ chunks: toolCallChunks('s1', 'search_documents', { query: 'refund days' }) });
  llm!.fallback = (body) => {
    const result = JSON.parse(body.messages.at(-1).content);
    const hit = (Array.isArray(result) ? result : result.results).find((h: any) => h.text.includes('Refunds are granted'));
    return { chunks: textChunks(`You have 30 days [1].\n<citations><citation ref="1" chunk_id="${hit.chunk_id}" revision_id="${hit.revision_id}" doc_name="${hit.doc_name}" quote="${QUOTE}"/></citations>`, 5) };
  };
  t.equal((await ask(tp, token, session, 'How long do I have for a refund?')).frames.at(-1)!.status, 'completed');

  const answer = await gql(tp, `{ chatSession(id: "${session}") { id messages(last: 1) { totalCount edges { node {
    id role createdAt session { id } citations { id quotedText verificationStatus messageId message { id } } } } } } }`, { token });
  t.same(answer.body.errors ?? [], []);
  const { messages } = answer.body.data.chatSession;
  t.equal(messages.totalCount, 4, 'two questions, two answers');
  t.equal(messages.edges.length, 1);
  const last = messages.edges[0].node;
  t.match(last, { role: 'ASSISTANT', session: { id: session } });
  t.match(last.createdAt, /Z$/, 'a DateTime');
  t.match(last.citations, [{ quotedText: QUOTE, verificationStatus: 'VERIFIED', messageId: last.id, message: { id: last.id } }], 'the answer\'s citation');
  t.equal(last.citations.length, 1);

  // Backwards: the end, then the page before it.
  const PAGE = (before?: string) => `{ chatSession(id: "${session}") { messages(last: 2${before ? `, before: "${before}"` : ''}) {
    edges { node { role content citations { id } } } pageInfo { hasPreviousPage hasNextPage startCursor } } } }`;
  const end = (await gql(tp, PAGE(), { token })).body.data.chatSession.messages;
  t.same(end.edges.map((e: any) => e.node.role), ['USER', 'ASSISTANT'], 'oldest first within the page');
  t.match(end.pageInfo, { hasPreviousPage: true, hasNextPage: false });
  const start = (await gql(tp, PAGE(end.pageInfo.startCursor), { token })).body.data.chatSession.messages;
  t.same(start.edges.map((e: any) => e.node.content), ['Hello', 'Ask me about refunds.']);
  t.same(start.edges.map((e: any) => e.node.citations), [[], []], 'no citations on a question or on an answer that cites nothing');
  t.match(start.pageInfo, { hasPreviousPage: false, hasNextPage: true });

  // From the citation side: the message and its session.
  const cited = await gql(tp, `{ citations(filter: { executionContextId: "${session}" }) { totalCount edges { node { messageId message { role session { id } } } } } }`, { token });
  t.same(cited.body.errors ?? [], []);
  t.equal(cited.body.data.citations.totalCount, 1);
  t.match(cited.body.data.citations.edges[0].node, { messageId: last.id, message: { role: 'ASSISTANT', session: { id: session } } });
  const bob = await member(tp, tenant, 'bob');
  const asBob = await gql(tp, `{ citations(filter: { executionContextId: "${session}" }) { edges { node { messageId message { id } } } } }`, { token: bob });
  t.same(asBob.body.data.citations.edges, [{ node: { messageId: last.id, message: null } }], 'another member sees the citation, not the answer');

  const listed = await gql(tp, '{ chatSessions(last: 5) { totalCount edges { node { id clientId client { name } } } } }', { token });
  t.match(listed.body.data.chatSessions, { totalCount: 1, edges: [{ node: { id: session, client: { name: 'web' } } }] });
});

t.test('access as the REST sessions routes', async (t) => {
  const { tp, token, tenant, clientId } = await chatFixture(t, { manifest: MANIFEST, llm: false });
  const mine = await newSession(tp, token);
  const older = await newSession(tp, token);
  const other = await tenantWithAdmin(tp, 'other');
  const foreign = await newSession(tp, other.token);
  const ONE = (id: string) => `{ chatSession(id: "${id}") { id } }`;
  t.same((await gql(tp, ONE(mine), { token })).body, { data: { chatSession: { id: mine } } });
  t.same((await gql(tp, ONE(foreign), { token })).body, { data: { chatSession: null } }, 'another tenant\'s session: null');
  t.same((await gql(tp, ONE('not-a-session'), { token })).body, { data: { chatSession: null } }, 'not an id: null');

  const bob = await member(tp, tenant, 'bob');
  t.same((await gql(tp, ONE(mine), { token: bob })).body, { data: { chatSession: null } }, 'another member\'s session: null');
  t.same((await gql(tp, '{ chatSessions { totalCount edges { node { id } } } }', { token: bob })).body.data.chatSessions, { totalCount: 0, edges: [] });
  const both = (await gql(tp, '{ chatSessions(first: 1) { totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } }', { token })).body.data.chatSessions;
  t.equal(both.totalCount, 2);
  const next = (await gql(tp, `{ chatSessions(first: 1, after: "${both.pageInfo.endCursor}") { edges { node { id } } pageInfo { hasNextPage } } }`, { token })).body.data.chatSessions;
  t.same([...both.edges, ...next.edges].map((e: any) => e.node.id).sort(), [mine, older].sort(), 'each session once, over two pages');
  t.equal(next.pageInfo.hasNextPage, false);

  // An API key: its visitor's sessions on its own client, as REST.
  const key = await apiKey(tp, token, tenant, 'widget');
  const visitor = (id: string): Auth => ({ apiKey: key.key, headers: { 'x-visitor-id': id } });
  const created = await tp.request({ method: 'POST', url: '/api/sessions', payload: {}, ...visitor('visitor-aaaa') });
  t.equal(created.status, 201);
  const noVisitor = await gql(tp, '{ chatSessions { totalCount } }', { apiKey: key.key });
  t.match(noVisitor.body.errors, [{ extensions: { code: 'VISITOR_ID_REQUIRED' } }], 'X-Visitor-Id required, as REST');
  t.match((await gql(tp, '{ chatSessions { totalCount edges { node { id } } } }', visitor('visitor-aaaa'))).body.data.chatSessions,
    { totalCount: 1, edges: [{ node: { id: created.body.id } }] });
  t.equal((await gql(tp, '{ chatSessions { totalCount } }', visitor('visitor-bbbb'))).body.data.chatSessions.totalCount, 0, 'another visitor sees none');
  t.same((await gql(tp, ONE(created.body.id), visitor('visitor-bbbb'))).body, { data: { chatSession: null } });
  t.same((await gql(tp, ONE(mine), visitor('visitor-aaaa'))).body, { data: { chatSession: null } }, 'a user\'s session on another client: null');
  const otherClient = await gql(tp, `{ chatSessions(filter: { clientId: "${clientId}" }) { totalCount } }`, visitor('visitor-aaaa'));
  t.match(otherClient.body.errors, [{ extensions: { code: 'CLIENT_FORBIDDEN' } }], 'another client, as REST\'s selected_client');
  const client = await gql(tp, `{ chatSession(id: "${created.body.id}") { id client { name } } }`, visitor('visitor-aaaa'));
  t.match(client.body, { data: { chatSession: { id: created.body.id, client: null } }, errors: [{ path: ['chatSession', 'client'], extensions: { code: 'FORBIDDEN' } }] },
    'the client stays with members');
  const bad = await gql(tp, '{ chatSessions(filter: { clientId: "web" }) { totalCount } }', { token });
  t.match(bad.body.errors, [{ extensions: { code: 'BAD_USER_INPUT' } }]);
});

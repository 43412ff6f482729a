// Chat with the real ingestion and citations plugins: a text document
// uploaded through the ingestion REST API, then (1) the offline responder
// quotes it with verified citations, (2) a model searches it with
// search_documents through the registry and cites it; every entry of the
// reply's <citations> block is resolved and verified (match_type filled in).
// A Markdown document is quoted by the sentence that answers, under its
// heading, with no heading inside the quote.
import t, { type Test } from 'tap';
import { textChunks, toolCallChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { multipart } from '../../ingestion/test/helpers.ts';
import { ask, chatFixture, messagesOf, newSession, textOf, until } from './helpers.ts';
import type { TestPlatform } from 'agent-platform/sdk/testing';

const MANIFEST = 'test/fixtures/manifests/chat-documents.yaml';
const DOC = 'Refund policy.\n\nRefunds are granted within 30 days of purchase when the item is unused.\n\nShipping is free above 50 euros.';

const GUIDE = `# Returns guide

Welcome to the returns guide. It explains what happens after you buy.

## Refunds

Our team reads every request within two business days. A refund is paid to the original card within 14 days of approval. Store credit is offered for items without a receipt.

## Shipping

Orders ship from Lisbon. Parcels arrive in three to five days.
`;

async function ingestText(t: Test, tp: TestPlatform, token: string, filename = 'policy.txt', content = DOC) {
  const collection = await tp.request({ method: 'POST', url: '/api/admin/collections', token, payload: { name: 'policies' } });
  t.equal(collection.status, 201, JSON.stringify(collection.body));
  const { payload, headers } = multipart([{ name: 'file', filename, content }]);
  const uploaded = await tp.request({ method: 'POST', url: `/api/admin/collections/${collection.body.collection_id}/documents`, token, payload, headers });
  t.equal(uploaded.status, 202, JSON.stringify(uploaded.body));
  // Waits for ingestion to settle either way, so that a failure is reported with its error instead of a timeout.
  const settled = await until(async () => {
    const status = await tp.request({ url: `/api/admin/documents/${uploaded.body.document_id}/ingestion-status`, token });
    return status.body.ingestion_status === 'ready' || status.body.ingestion_status === 'error' ? status.body : undefined;
  }, 'the document to be ingested', 120_000);
  t.equal(settled.ingestion_status, 'ready', `the document is ready (${JSON.stringify(settled)})`);
}

t.test('offline responder: quotes the uploaded document with verified citations', async (t) => {
  const { tp, token } = await chatFixture(t, { llm: false, manifest: MANIFEST });
  await ingestText(t, tp, token);
  const session = await newSession(tp, token);
  const answer = await ask(tp, token, session, 'refunds within 30 days');
  t.equal(answer.status, 200);
  t.match(textOf(answer.frames), /Extractive answer/);
  t.match(textOf(answer.frames), /Refunds are granted within 30 days/);
  const citations = answer.frames.find((f) => f.type === 'citations');
  t.ok(citations, 'a citations frame');
  t.match(citations!.citations[0], { doc_name: 'policy.txt', verification_status: 'verified', match_type: 'exact' });
  const stored = (await messagesOf(tp, token, session)).at(-1)!;
  t.match(stored.content, /<citations>[\s\S]*match_type="exact"[\s\S]*<\/citations>/);
});

t.test('offline responder: from a Markdown document it quotes the sentence that answers, under its heading, never a heading', async (t) => {
  const { tp, token } = await chatFixture(t, { llm: false, manifest: MANIFEST });
  await ingestText(t, tp, token, 'guide.md', GUIDE);
  const session = await newSession(tp, token);
  const answer = await ask(tp, token, session, 'How many days until the refund is paid to my card?');
  t.equal(answer.frames.at(-1)!.status, 'completed');
  const text = textOf(answer.frames);
  t.match(text, /From \*Returns guide > Refunds\* in \*guide\.md\* \[1\]:\n\n> A refund is paid to the original card within 14 days of approval\.\n/);
  t.notMatch(text, /^> #/m, 'no heading inside a blockquote');
  t.notMatch(text, /^#/m, 'no heading of the document at all');
  t.notMatch(text, /Our team reads every request/, 'not the chunk\'s beginning');
  t.notMatch(text, /Orders ship from Lisbon/, 'a chunk that barely matches is left out');
  const citations = answer.frames.find((f) => f.type === 'citations')!;
  t.match(citations.citations, [{ ref: '1', doc_name: 'guide.md', section: 'Returns guide > Refunds', verification_status: 'verified', match_type: 'exact' }]);
  t.equal(citations.citations.length, 1);
  const stored = (await messagesOf(tp, token, session)).at(-1)!;
  t.match(stored.content, /<quote>A refund is paid to the original card within 14 days of approval\.<\/quote>/, 'the quote is the sentence, verbatim');
});

t.test('a model searches with search_documents and its citations are verified', async (t) => {
  const { tp, llm, token } = await chatFixture(t, { manifest: MANIFEST });
  await ingestText(t, tp, token);
  const session = await newSession(tp, token);
  llm!.enqueue({ chunks: toolCallChunks('s1', 'search_documents', { query: 'refund days' }) });
  llm!.fallback = (body) => {
    const result = JSON.parse(body.messages.at(-1).content);
    const hits = Array.isArray(result) ? result : result.results;
    const hit = hits.find((h: any) => h.text.includes('Refunds are granted'));
    const quote = 'Refunds are granted within 30 days of purchase';
    return { chunks: textChunks(`You have 30 days [1].\n<citations><citation ref="1" chunk_id="${hit.chunk_id}" revision_id="${hit.revision_id}" doc_name="${hit.doc_name}" quote="${quote}"/></citations>`, 5) };
  };
  const answer = await ask(tp, token, session, 'How long do I have for a refund?');
  t.equal(answer.frames.at(-1)!.status, 'completed', JSON.stringify(answer.frames.filter((f) => f.type === 'error')));
  t.same(answer.frames.filter((f) => f.type === 'tool_status').map((f) => f.status), ['running', 'completed']);
  t.equal(textOf(answer.frames).trim(), 'You have 30 days [1].', 'the block is not streamed as text');
  const citations = answer.frames.find((f) => f.type === 'citations')!;
  t.match(citations.citations, [{ ref: '1', doc_name: 'policy.txt', match_type: 'exact', verification_status: 'verified' }]);
  const stored = (await messagesOf(tp, token, session)).at(-1)!;
  t.match(stored.content, /match_type="exact"/);
  t.match(stored.tool_metadata.citations, [{ match_type: 'exact' }]);
});

// The offline responder (no LLM_BASE_URL): an extractive answer quoting the
// best passages with a <citations> block, or a plain statement that nothing
// matched. Here search goes through a search_documents function in the
// registry (the ingestion plugin is not loaded in this manifest).
import t from 'tap';
import { ask, chatFixture, messagesOf, newSession, textOf } from './helpers.ts';

const CHUNK = '3a7e7c4e-1111-4d2b-9c63-1f0f2b8e9a01';
const REVISION = '9b1d2c3e-2222-4a5b-8c6d-7e8f9a0b1c2d';

t.test('with no model and no sources it says so', async (t) => {
  const { tp, token } = await chatFixture(t, { llm: false });
  const session = await newSession(tp, token);
  const answer = await ask(tp, token, session, 'What is our refund policy?');
  t.equal(answer.status, 200);
  t.match(textOf(answer.frames), /No language model is configured and none of your documents matches/);
  t.equal(answer.frames.at(-1)!.status, 'completed');
  const stored = (await messagesOf(tp, token, session)).at(-1)!;
  t.same(stored.tool_metadata.responder, { kind: 'extractive', sources: 0 });
});

t.test('with no model it quotes the best passages and cites them', async (t) => {
  const { tp, token } = await chatFixture(t, { llm: false });
  const queries: unknown[] = [];
  tp.platform.core.functions.register('search_documents', {
    description: 'search', parameters: { properties: { query: { type: 'string' }, top_k: { type: 'integer' } }, required: ['query'] },
    handler: async (args, context) => {
      queries.push({ args, context: context.executionContext });
      return { results: [{
        chunk_id: CHUNK, revision_id: REVISION, document_id: 'd1', doc_name: 'policy.pdf', collection_id: 1, page: 2, section: 'Refunds', score: 0.9,
        text: 'Refunds are granted within 30 days of purchase. Items must be unused.',
      }] };
    },
  });
  const session = await newSession(tp, token);
  const answer = await ask(tp, token, session, 'What is our refund policy?', ['report_widget']);
  t.same(queries, [{ args: { query: 'What is our refund policy?', top_k: 3 }, context: { type: 'chat_session', id: session } }]);
  const text = textOf(answer.frames);
  t.match(text, /Extractive answer/);
  // The sentence that answers (the one with the question's terms), under where it comes from.
  t.match(text, /From \*Refunds\* in \*policy\.pdf\*, p\. 2 \[1\]:\n\n> Refunds are granted within 30 days of purchase\.\n/);
  t.notMatch(text, /Items must be unused/);
  t.notMatch(text, /<citations>/, 'the block is not streamed as text');
  const citations = answer.frames.find((f) => f.type === 'citations')!;
  t.match(citations.citations, [{ ref: '1', chunk_id: CHUNK, revision_id: REVISION, doc_name: 'policy.pdf', page: 2, section: 'Refunds' }]);
  const stored = (await messagesOf(tp, token, session)).at(-1)!;
  t.match(stored.content, /<citations>\n {2}<citation ref="1" chunk_id="3a7e7c4e-1111-4d2b-9c63-1f0f2b8e9a01" revision_id="9b1d2c3e-2222-4a5b-8c6d-7e8f9a0b1c2d" doc_name="policy.pdf" page="2" section="Refunds" quote="Refunds are granted within 30 days of purchase\."/);
  t.same(stored.tool_metadata.responder, { kind: 'extractive', sources: 1 });
});

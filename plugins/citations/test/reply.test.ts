// resolveReply, as the chat plugin calls it for an assistant reply: each
// entry of the <citations> block resolved and verified in the session's
// context; unreadable entries reported; a block larger than inlineVerifyLimit
// (3 in the test manifest) created `pending` in the request's transaction and
// verified by the job; recordShown for callers that show chunks themselves.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { citationsFixture, seedDocument, showChunksFunction } from './helpers.ts';

const TEXT = 'Backups run nightly at 02:00 UTC and are kept for thirty days in the secondary region.';

t.test('a small block is verified inline; entries carry their citation ids and match types', async (t) => {
  const { tp, admins } = await citationsFixture(t);
  const api = tp.platform.server.plugins.citations.api;
  const doc = await seedDocument(tp, 'acme', 'Ops Runbook.txt', [TEXT, 'Restores are tested every quarter.']);
  const [a, b] = doc.chunks;
  const session = { type: 'chat_session', id: 'chat-7', client_id: 42 };
  await api.recordShown('acme', session, [{ chunk_id: a.chunk_id, revision_id: a.revision_id }]);

  const reply = `Backups are nightly [1]; restores quarterly [2].\n\n${api.writeBlock([
    { ref: '1', chunk_id: a.chunk_id, revision_id: a.revision_id, doc_name: 'Ops Runbook.txt', quote: 'kept for  thirty days' },
    { ref: '2', chunk_id: b.chunk_id, revision_id: b.revision_id, doc_name: 'Ops Runbook.txt', quote: 'Restores are tested every quarter.' },
  ])}\n<citations><citation ref="x"/></citations>`;
  // Only the last block is read: make the broken one come first instead.
  const text = `<citations><citation ref="x"/></citations>\n${reply.replace(/\n<citations><citation ref="x"\/><\/citations>$/, '')}`;
  const first = await api.resolveReply('acme', text, session);
  t.same(first.errors, []);
  t.match(first.entries, [
    { ref: '1', chunk_id: a.chunk_id, citation_id: String, verification_status: 'verified', match_type: 'normalized', match_score: 1 },
    { ref: '2', chunk_id: b.chunk_id, citation_id: String, verification_status: 'out_of_provenance', match_type: 'exact' },
  ]);
  const rows = await tp.request({ url: '/api/citations?tenant_id=acme&execution_context_id=chat-7', token: admins[0].token });
  t.equal(rows.body.total, 2);
  t.match(rows.body.items.find((c: { id: string }) => c.id === first.entries[0].citation_id), {
    execution_context_type: 'chat_session', client_id: 42, quoted_text: 'kept for  thirty days', document_name: 'Ops Runbook.txt',
  });

  const broken = await api.resolveReply('acme', `<citations>
    <citation ref="1" chunk_id="${a.chunk_id}" revision_id="${a.revision_id}" doc_name="Ops Runbook.md"/>
    <citation ref="2" revision_id="r" doc_name="d"/>
    <citation ref="3" chunk_id="${a.chunk_id}" revision_id="some-older-revision" doc_name="What the model said.md" quote="Backups run nightly"/>
    <citation ref="4" chunk_id="00000000-0000-4000-8000-000000000001" revision_id="r9" doc_name="Invented.pdf" page="3" quote="anything"/>
  </citations>`, session);
  t.match(broken.errors, [{ index: 1, message: /chunk_id/ }]);
  t.match(broken.entries, [
    { ref: '1', verification_status: 'unverified', match_type: null },
    { ref: '3', verification_status: 'failed', match_type: 'not_found' },
    { ref: '4', verification_status: 'out_of_provenance', match_type: 'not_found' },
  ]);
  const invented = await tp.request({ url: `/api/citations/${broken.entries[2].citation_id}?tenant_id=acme`, token: admins[0].token });
  t.match(invented.body, { document_name: 'Invented.pdf', page: 3, document_id: null, revision_id: 'r9' }, 'a missing chunk keeps what the reply claimed');

  t.same(await api.resolveReply('acme', 'No citations here.', session), { entries: [], errors: [] });
});

t.test('a large block takes the bulk path: pending now, verified by the job', async (t) => {
  const { tp, admins } = await citationsFixture(t);
  const api = tp.platform.server.plugins.citations.api;
  const doc = await seedDocument(tp, 'acme', 'Big.txt', [TEXT]);
  const [chunk] = doc.chunks;
  const session = { type: 'chat_session', id: 'chat-bulk' };
  await showChunksFunction(tp)('acme', session, [chunk.chunk_id]);
  const quotes = ['Backups run nightly', 'at 02:00 UTC', 'kept for thirty   days', 'in the secondary regoin', 'nothing like this at all, really'];
  const block = api.writeBlock(quotes.map((quote, i) => ({ ref: String(i + 1), chunk_id: chunk.chunk_id, revision_id: chunk.revision_id, doc_name: 'Big.txt', quote })));
  const resolved = await api.resolveReply('acme', block, session);
  t.equal(resolved.entries.length, 5);
  t.ok(resolved.entries.every((e) => e.verification_status === 'pending' && e.match_type === null), 'created pending');

  const done = await until(async () => {
    const listed = await tp.request({ url: '/api/citations?tenant_id=acme&execution_context_id=chat-bulk', token: admins[0].token });
    return listed.body.items.every((c: { verification_status: string }) => c.verification_status !== 'pending') && listed.body.items;
  }, 'the verification job');
  const byRef = new Map(resolved.entries.map((e) => [e.citation_id, e.ref]));
  const verdicts = done.map((c: { id: string; verification_status: string; match_type: string; verified_by_context_id: string }) =>
    [byRef.get(c.id), c.verification_status, c.match_type, c.verified_by_context_id]).sort();
  t.same(verdicts, [
    ['1', 'verified', 'exact', 'chat-bulk'],
    ['2', 'verified', 'exact', 'chat-bulk'],
    ['3', 'verified', 'normalized', 'chat-bulk'],
    ['4', 'verified', 'fuzzy', 'chat-bulk'],
    ['5', 'failed', 'not_found', 'chat-bulk'],
  ]);
  const stats = await tp.request({ url: '/api/citations/stats?tenant_id=acme', token: admins[0].token });
  t.same(stats.body, { verified: 4, failed: 1, pending: 0, unverified: 0, out_of_provenance: 0, total: 5 });
});

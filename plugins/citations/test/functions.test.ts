// resolve_citation and verify_citation through the real function registry, as
// an agent in a chat session, a workflow step and a direct admin call make
// them: each match type with spans into the chunk, unverified without a quote,
// failed-but-created when nothing matches, out_of_provenance for a chunk the
// context was never shown, verification after a reingest and after the chunk
// is gone, and a deleted document's citation keeping its snapshot name.
import t from 'tap';
import { callFunction, citationsFixture, deleteDocument, purgeChunks, reingest, seedDocument, showChunksFunction } from './helpers.ts';

const GUIDE = 'Section 4. Safety\n\nOperators must wear   protective gloves\nwhen handling the solvent. '
  + 'Spills are contained with the absorbent kit stored next to the eyewash station.';
const OTHER = 'The pump runs at 40 bar and is serviced every six months by the maintenance team.';

t.test('resolve_citation in a chat session: every match type, spans, provenance', async (t) => {
  const { tp } = await citationsFixture(t);
  const doc = await seedDocument(tp, 'acme', 'Safety Guide.txt', [GUIDE, OTHER]);
  const [guide, other] = doc.chunks;
  const session = { type: 'chat_session', id: 'session-1' };
  await showChunksFunction(tp)('acme', session, [guide.chunk_id]);

  const exact = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: guide.chunk_id, quoted_text: 'Spills are contained' }, session);
  t.match(exact, {
    id: String, chunk_id: guide.chunk_id, revision_id: doc.revision_id, document_id: doc.document_id, collection_id: doc.collection_id,
    document_name: 'Safety Guide.txt', tenant_id: 'acme', execution_context_type: 'chat_session', execution_context_id: 'session-1',
    verification_status: 'verified', match_type: 'exact', match_score: 1, verified_at: String, created_at: String, page: 0,
  });
  t.equal(GUIDE.slice(exact.matched_span_start, exact.matched_span_end), 'Spills are contained');

  const normalized = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: guide.chunk_id, quoted_text: 'must wear protective gloves  when handling' }, session);
  t.match(normalized, { verification_status: 'verified', match_type: 'normalized', match_score: 1 });
  t.equal(GUIDE.slice(normalized.matched_span_start, normalized.matched_span_end), 'must wear   protective gloves\nwhen handling');

  const fuzzy = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: guide.chunk_id, quoted_text: 'Spills are contained with the absorbent pack stored next to the eyewash station.' }, session);
  t.match(fuzzy, { verification_status: 'verified', match_type: 'fuzzy' });
  t.ok(fuzzy.match_score > 0.85 && fuzzy.match_score < 1);
  t.equal(GUIDE.slice(fuzzy.matched_span_start, fuzzy.matched_span_end), 'Spills are contained with the absorbent kit stored next to the eyewash station.');

  const notFound = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: guide.chunk_id, quoted_text: 'Wipe spills with paper towels from the kitchen.' }, session);
  t.match(notFound, { verification_status: 'failed', match_type: 'not_found', matched_span_start: null, matched_span_end: null, id: String });

  const bare = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: guide.chunk_id }, session);
  t.match(bare, { verification_status: 'unverified', match_type: null, match_score: null, verified_at: null });

  const unseen = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: other.chunk_id, quoted_text: 'The pump runs at 40 bar' }, session);
  t.match(unseen, { verification_status: 'out_of_provenance', match_type: 'exact', match_score: 1 }, 'never shown to this session: caught, match still stored');
  t.equal(OTHER.slice(unseen.matched_span_start, unseen.matched_span_end), 'The pump runs at 40 bar');

  const elsewhere = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: guide.chunk_id, quoted_text: 'Spills are contained' }, { type: 'chat_session', id: 'session-2' });
  t.equal(elsewhere.verification_status, 'out_of_provenance', 'provenance is per context');

  const workflow = { type: 'workflow_execution', id: 'exec-1' };
  await showChunksFunction(tp)('acme', workflow, [other.chunk_id]);
  const fromWorkflow = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: other.chunk_id, quoted_text: 'serviced every six months' }, workflow);
  t.match(fromWorkflow, { verification_status: 'verified', execution_context_type: 'workflow_execution', execution_context_id: 'exec-1' });

  const stored = await tp.platform.core.withTenant('acme', (trx) => trx.selectFrom('citation_provenance').selectAll().orderBy('context_id').execute());
  t.same(stored.map((r) => [r.context_type, r.context_id, r.chunk_id, r.function_name]), [
    ['workflow_execution', 'exec-1', other.chunk_id, 'read_document'],
    ['chat_session', 'session-1', guide.chunk_id, 'read_document'],
  ], 'the observer recorded what each context was shown (citing records nothing)');
});

t.test('a direct admin call: function_call context, verified on the quote alone', async (t) => {
  const { tp, admins } = await citationsFixture(t);
  const doc = await seedDocument(tp, 'acme', 'Pump.txt', [OTHER]);
  const called = await tp.request({
    method: 'POST', url: '/api/admin/functions/resolve_citation/call', token: admins[0].token,
    payload: { arguments: { chunk_id: doc.chunks[0].chunk_id, quoted_text: 'runs at 40 bar' } },
  });
  t.equal(called.status, 200);
  t.match(called.body.result, { execution_context_type: 'function_call', execution_context_id: String, verification_status: 'verified', match_type: 'exact' });

  const invalid = await tp.request({ method: 'POST', url: '/api/admin/functions/resolve_citation/call', token: admins[0].token, payload: { arguments: { chunk_id: 'nope' } } });
  t.equal(invalid.status, 400);
  t.equal(invalid.body.code, 'INVALID_ARGUMENTS');
  const extra = await tp.request({ method: 'POST', url: '/api/admin/functions/resolve_citation/call', token: admins[0].token, payload: { arguments: { chunk_id: doc.chunks[0].chunk_id, quote: 'x' } } });
  t.equal(extra.status, 400);
  const missing = await tp.request({ method: 'POST', url: '/api/admin/functions/resolve_citation/call', token: admins[0].token, payload: { arguments: { chunk_id: '00000000-0000-4000-8000-000000000000' } } });
  t.equal(missing.status, 404);
  t.equal(missing.body.code, 'CHUNK_NOT_FOUND');
  const verifyMissing = await tp.request({ method: 'POST', url: '/api/admin/functions/verify_citation/call', token: admins[0].token, payload: { arguments: { citation_id: '00000000-0000-4000-8000-000000000000' } } });
  t.equal(verifyMissing.status, 404);
  t.equal(verifyMissing.body.code, 'CITATION_NOT_FOUND');
  const count = await tp.platform.core.withTenant('acme', (trx) => trx.selectFrom('citations').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow());
  t.equal(Number(count.n), 1, 'bad input created nothing');
});

t.test('verify_citation: after a reingest, after a purge, and a deleted document keeps its snapshot', async (t) => {
  const { tp, admins } = await citationsFixture(t);
  const doc = await seedDocument(tp, 'acme', 'Manual v1.txt', [GUIDE]);
  const chunk = doc.chunks[0];
  const session = { type: 'chat_session', id: 's-verify' };
  await showChunksFunction(tp)('acme', session, [chunk.chunk_id]);
  const cited = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: chunk.chunk_id, quoted_text: 'protective gloves when handling the solvent' }, session);
  t.match(cited, { verification_status: 'verified', match_type: 'normalized' });

  await reingest(tp, 'acme', doc.document_id, doc.revision_id);
  const again = await callFunction(tp, 'acme', 'verify_citation', { citation_id: cited.id }, { type: 'workflow_execution', id: 'audit-1' });
  t.match(again, {
    id: cited.id, verification_status: 'verified', match_type: 'normalized',
    matched_span_start: cited.matched_span_start, matched_span_end: cited.matched_span_end,
    execution_context_type: 'chat_session', verified_by_context_type: 'workflow_execution', verified_by_context_id: 'audit-1',
  }, 'the cited revision\'s text is what it was; the verdict is kept as made in its context');
  t.ok(Date.parse(again.verified_at) >= Date.parse(cited.verified_at));

  await deleteDocument(tp, 'acme', doc.document_id);
  const listed = await tp.request({ url: '/api/citations?tenant_id=acme&document_name=manual', token: admins[0].token });
  t.equal(listed.status, 200);
  t.same(listed.body.items.map((c: { id: string; document_name: string }) => [c.id, c.document_name]), [[cited.id, 'Manual v1.txt']], 'still listed under its snapshot name');

  await purgeChunks(tp, 'acme', doc.revision_id);
  const gone = await callFunction(tp, 'acme', 'verify_citation', { citation_id: cited.id }, session);
  t.match(gone, { verification_status: 'failed', match_type: 'not_found', matched_span_start: null, document_name: 'Manual v1.txt' });
  const read = await tp.request({ url: `/api/citations/${cited.id}?tenant_id=acme`, token: admins[0].token });
  t.match(read.body, { id: cited.id, verification_status: 'failed', match_type: 'not_found', document_name: 'Manual v1.txt', document_id: doc.document_id });
});

t.test('provenance is per tenant: the same context id in another tenant was shown nothing', async (t) => {
  const { tp } = await citationsFixture(t, { tenants: ['acme', 'globex'] });
  const mine = await seedDocument(tp, 'acme', 'Shared name.txt', [OTHER]);
  const theirs = await seedDocument(tp, 'globex', 'Shared name.txt', [OTHER]);
  const session = { type: 'chat_session', id: 'same-id' };
  await showChunksFunction(tp)('acme', session, [mine.chunks[0].chunk_id]);
  const here = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: mine.chunks[0].chunk_id, quoted_text: 'runs at 40 bar' }, session);
  t.equal(here.verification_status, 'verified');
  const there = await callFunction(tp, 'globex', 'resolve_citation', { chunk_id: theirs.chunks[0].chunk_id, quoted_text: 'runs at 40 bar' }, session);
  t.equal(there.verification_status, 'out_of_provenance');
  const foreign = await callFunction(tp, 'globex', 'resolve_citation', { chunk_id: mine.chunks[0].chunk_id }, session).catch((err) => err);
  t.equal(foreign?.output?.statusCode, 404, 'another tenant\'s chunk cannot be cited');
  const globexRows = await tp.platform.core.withTenant('globex', (trx) => trx.selectFrom('citation_provenance').selectAll().execute());
  t.same(globexRows, [], 'nothing recorded for globex');
});


// What the provenance observer records from a function's result: every
// {chunk_id, revision_id} object (nested in arrays and objects), bounded in
// depth and count; nothing from our own functions or direct calls; and the
// verdict's status table (pure).
import t from 'tap';
import { chunkRefsIn, refsToRecord, WALK_LIMITS } from '../provenance/walk.ts';
import { verdict } from '../match/verification.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

t.test('finds chunk references anywhere in a result', async (t) => {
  const result = {
    results: [{ chunk_id: id(1), revision_id: 'r1', text: 'a' }, { chunk_id: id(2).toUpperCase(), revision_id: 7 }],
    document: { chunks: [{ chunk: { chunk_id: id(3), revision_id: 'r3' } }] },
    ignored: [{ chunk_id: 'not-a-uuid', revision_id: 'r' }, { chunk_id: id(4) }, 'text', 42, null],
    again: { chunk_id: id(1), revision_id: 'r1' },
  };
  t.same(chunkRefsIn(result).sort((a, b) => a.chunk_id.localeCompare(b.chunk_id)), [
    { chunk_id: id(1), revision_id: 'r1' },
    { chunk_id: id(2), revision_id: '7' },
    { chunk_id: id(3), revision_id: 'r3' },
  ]);
  t.same(chunkRefsIn(null), []);
  t.same(chunkRefsIn('chunk_id'), []);
});

t.test('bounded: depth and number of references', async (t) => {
  let deep: Record<string, unknown> = { chunk_id: id(9), revision_id: 'r' };
  for (let i = 0; i < 50; i += 1) deep = { next: deep };
  t.same(chunkRefsIn(deep), [], 'beyond the depth limit');
  const many = Array.from({ length: 5000 }, (_, i) => ({ chunk_id: id(i), revision_id: 'r' }));
  t.equal(chunkRefsIn(many).length, WALK_LIMITS.refs);
  const cyclic: Record<string, unknown> = { chunk_id: id(1), revision_id: 'r' };
  cyclic.self = cyclic;
  t.same(chunkRefsIn(cyclic), [{ chunk_id: id(1), revision_id: 'r' }], 'a cycle ends at the limits');
});

t.test('which calls record provenance', async (t) => {
  const result = [{ chunk_id: id(1), revision_id: 'r' }];
  const context = (type: string) => ({ executionContext: { type, id: 'x' } }) as never;
  t.equal(refsToRecord({ name: 'search_documents', result, context: context('chat_session') }).length, 1);
  t.equal(refsToRecord({ name: 'read_document', result, context: context('workflow_execution') }).length, 1);
  t.equal(refsToRecord({ name: 'search_documents', result, context: context('function_call') }).length, 0, 'direct calls are not checked');
  t.equal(refsToRecord({ name: 'search_documents', result, context: {} as never }).length, 0, 'no execution context');
  t.equal(refsToRecord({ name: 'resolve_citation', result, context: context('chat_session') }).length, 0, 'citing is not being shown');
});

t.test('the verdict table', async (t) => {
  const chunk = { revision_id: 'r1', text: 'The pump runs at 40 bar.' };
  const v = (input: Partial<Parameters<typeof verdict>[0]>) => verdict({ chunk, revisionId: 'r1', quote: null, shown: true, ...input });
  t.match(v({}), { verification_status: 'unverified', match_type: null, checked: false });
  t.match(v({ quote: 'runs at 40 bar' }), { verification_status: 'verified', match_type: 'exact', match_score: 1, matched_span_start: 9, matched_span_end: 23, checked: true });
  t.match(v({ quote: 'completely different words here' }), { verification_status: 'failed', match_type: 'not_found', matched_span_start: null });
  t.match(v({ quote: 'runs at 40 bar', shown: false }), { verification_status: 'out_of_provenance', match_type: 'exact', matched_span_start: 9 },
    'out of provenance, the match still computed');
  t.match(v({ quote: 'runs at 40 bar', shown: null }), { verification_status: 'verified' }, 'provenance not applicable');
  t.match(v({ chunk: undefined }), { verification_status: 'failed', match_type: 'not_found', checked: true }, 'a deleted chunk');
  t.match(v({ revisionId: 'r0', quote: 'runs at 40 bar' }), { verification_status: 'failed', match_type: 'not_found' }, 'another revision is not the cited one');
});

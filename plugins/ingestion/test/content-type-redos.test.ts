// Content sniffing reads uploaded text in linear time: a run of HTML comments
// before the first tag (40 × "<!---->", which would make a backtracking
// doctype pattern run for hours) is typed at once and the document is
// ingested.
import t from 'tap';
import { createCollection, ingestionFixture, upload, waitFor } from './helpers.ts';

t.test('an HTML upload that opens with many comments is typed and ingested', async (t) => {
  const { tp, token } = await ingestionFixture(t);
  const collection = await createCollection(tp, token, 'Comments');
  const page = `${'<!---->'.repeat(40)}x<p>Gate valves isolate the flow.</p>`;
  const answer = await upload(tp, token, collection, 'comments.html', page);
  t.equal(answer.status, 202, JSON.stringify(answer.body));
  const typed = `${'<!-- note -->\n'.repeat(3)}<!doctype html><html><body><p>Butterfly valves regulate the flow.</p></body></html>`;
  const second = await upload(tp, token, collection, 'typed.html', typed);
  t.equal(second.status, 202, JSON.stringify(second.body));
  const status = await waitFor(tp, token, second.body.document_id);
  t.equal(status.ingestion_status, 'ready', status.error ?? '');
  const detail = (await tp.request({ url: `/api/admin/documents/${second.body.document_id}`, token })).body;
  t.equal(detail.content_type, 'text/html', 'a doctype after leading comments is still recognised');
});

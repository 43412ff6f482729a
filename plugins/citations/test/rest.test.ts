// The citations REST API: every filter of GET /api/citations, paging and its
// limit, stats and their total, one citation, bulk re-verification, bad input
// (400, nothing changed), auth (bearer or API key of the tenant, never another
// tenant's data), and the chat citation status endpoint with right, wrong and
// other tenants' or clients' API keys.
import t from 'tap';
import { sql } from 'kysely';
import { until } from 'agent-platform/sdk/testing';
import { apiKey, callFunction, citationsFixture, seedDocument, showChunksFunction } from './helpers.ts';

const TEXT = 'Invoices are due within 30 days of receipt; late payments accrue 2% interest per month.';

async function world(t: Tap) {
  const { tp, admins } = await citationsFixture(t, { tenants: ['acme', 'globex'] });
  const [acme, globex] = admins;
  const finance = await seedDocument(tp, 'acme', 'Finance_Policy 100%.txt', [TEXT], 'finance');
  const hr = await seedDocument(tp, 'acme', 'HR handbook.txt', ['Leave requests go through the portal.'], 'hr');
  const theirs = await seedDocument(tp, 'globex', 'Finance Policy.txt', [TEXT]);
  const show = showChunksFunction(tp);
  await show('acme', { type: 'chat_session', id: 's1' }, [finance.chunks[0].chunk_id]);
  await show('acme', { type: 'workflow_execution', id: 'w1' }, [hr.chunks[0].chunk_id]);
  await show('acme', { type: 'chat_session', id: 's2' }, [hr.chunks[0].chunk_id]);
  const c1 = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: finance.chunks[0].chunk_id, quoted_text: 'due within 30 days' }, { type: 'chat_session', id: 's1' });
  const c2 = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: finance.chunks[0].chunk_id, quoted_text: 'paid in cash only, always' }, { type: 'chat_session', id: 's1' });
  const c3 = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: hr.chunks[0].chunk_id }, { type: 'workflow_execution', id: 'w1' });
  const c4 = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: hr.chunks[0].chunk_id, quoted_text: 'Leave requests' }, { type: 'chat_session', id: 's2' });
  const g1 = await callFunction(tp, 'globex', 'resolve_citation', { chunk_id: theirs.chunks[0].chunk_id, quoted_text: 'due within 30 days' });
  // Spread creation times over known dates for the date filters.
  await tp.platform.core.withTenant('acme', async (trx) => {
    for (const [id, at] of [[c1.id, '2026-01-10T10:00:00Z'], [c2.id, '2026-02-10T10:00:00Z'], [c3.id, '2026-03-10T10:00:00Z'], [c4.id, '2026-04-10T10:00:00Z']]) {
      await sql`UPDATE citations SET created_at = ${at}::timestamptz WHERE id = ${id}::uuid`.execute(trx);
    }
  });
  return { tp, acme, globex, finance, hr, c: [c1, c2, c3, c4], g1 };
}
type Tap = Parameters<typeof citationsFixture>[0];

t.test('GET /api/citations: every filter, paging, newest first', async (t) => {
  const { tp, acme, finance, c } = await world(t);
  const [c1, c2, c3, c4] = c;
  const ids = async (query: string) => {
    const res = await tp.request({ url: `/api/citations?tenant_id=acme${query}`, token: acme.token });
    t.equal(res.status, 200, query);
    return res.body.items.map((i: { id: string }) => i.id);
  };
  t.same(await ids(''), [c4.id, c3.id, c2.id, c1.id], 'newest first (creation order)');
  t.same(await ids(`&document_id=${finance.document_id}`), [c2.id, c1.id]);
  t.same(await ids(`&collection_id=${finance.collection_id}`), [c2.id, c1.id]);
  t.same(await ids('&execution_context_type=workflow_execution'), [c3.id]);
  t.same(await ids('&execution_context_type=chat_session&execution_context_id=s1'), [c2.id, c1.id]);
  t.same(await ids('&verification_status=failed'), [c2.id]);
  t.same(await ids('&verification_status=unverified'), [c3.id]);
  t.same(await ids('&verification_status=verified'), [c4.id, c1.id]);
  t.same(await ids('&document_name=FINANCE_policy'), [c2.id, c1.id], 'case-insensitive partial');
  t.same(await ids('&document_name=100%25'), [c2.id, c1.id], '% is literal');
  t.same(await ids('&document_name=_'), [c2.id, c1.id], '_ is literal');
  t.same(await ids('&document_name=handbook'), [c4.id, c3.id]);
  t.same(await ids('&date_from=2026-02-10T10:00:00Z'), [c4.id, c3.id, c2.id], 'date_from inclusive');
  t.same(await ids('&date_to=2026-02-10T10:00:00Z'), [c2.id, c1.id], 'date_to inclusive');
  t.same(await ids('&date_from=2026-02-01T00:00:00Z&date_to=2026-03-31T00:00:00Z'), [c3.id, c2.id]);

  const page = await tp.request({ url: '/api/citations?tenant_id=acme&skip=1&limit=2', token: acme.token });
  t.match(page.body, { total: 4, skip: 1, limit: 2 });
  t.same(page.body.items.map((i: { id: string }) => i.id), [c3.id, c2.id]);
  const defaults = await tp.request({ url: '/api/citations?tenant_id=acme', token: acme.token });
  t.match(defaults.body, { total: 4, skip: 0, limit: 50 });
  t.same(Object.keys(defaults.body.items[0]).sort(), [
    'chunk_id', 'client_id', 'collection_id', 'created_at', 'document_id', 'document_name', 'execution_context_id', 'execution_context_type',
    'id', 'match_score', 'match_type', 'matched_span_end', 'matched_span_start', 'page', 'quoted_text', 'revision_id', 'section',
    'tenant_id', 'verification_status', 'verified_at', 'verified_by_context_id', 'verified_by_context_type',
  ]);
  const max = await tp.request({ url: '/api/citations?tenant_id=acme&limit=500', token: acme.token });
  t.equal(max.status, 200);
});

t.test('bad input: clear 400s', async (t) => {
  const { tp, acme } = await world(t);
  const cases: [string, RegExp][] = [
    ['/api/citations', /tenant_id/],
    ['/api/citations?tenant_id=acme&limit=501', /limit/],
    ['/api/citations?tenant_id=acme&limit=0', /limit/],
    ['/api/citations?tenant_id=acme&skip=-1', /skip/],
    ['/api/citations?tenant_id=acme&verification_status=great', /verification_status/],
    ['/api/citations?tenant_id=acme&document_id=nope', /document_id/],
    ['/api/citations?tenant_id=acme&collection_id=x', /collection_id/],
    ['/api/citations?tenant_id=acme&date_from=yesterday', /date_from/],
    ['/api/citations?tenant_id=acme&colour=red', /colour/],
    ['/api/citations/stats', /tenant_id/],
    ['/api/citations/not-a-uuid?tenant_id=acme', /citation_id/],
  ];
  for (const [url, message] of cases) {
    const res = await tp.request({ url, token: acme.token });
    t.equal(res.status, 400, url);
    t.match(res.body, { statusCode: 400, error: 'Bad Request', message }, url);
  }
  const verify = await tp.request({ method: 'POST', url: '/api/citations/verify?tenant_id=acme', token: acme.token, payload: { citation_ids: [], extra: 1 } });
  t.equal(verify.status, 400);
  const stats = await tp.request({ url: '/api/citations/stats?tenant_id=acme', token: acme.token });
  t.equal(stats.body.pending, 0, 'nothing was marked pending');
});

t.test('stats, one citation, bulk re-verification', async (t) => {
  const { tp, acme, c } = await world(t);
  const stats = await tp.request({ url: '/api/citations/stats?tenant_id=acme', token: acme.token });
  t.same(stats.body, { verified: 2, failed: 1, pending: 0, unverified: 1, out_of_provenance: 0, total: 4 });
  const filtered = await tp.request({ url: '/api/citations/stats?tenant_id=acme&execution_context_id=s1', token: acme.token });
  t.same(filtered.body, { verified: 1, failed: 1, pending: 0, unverified: 0, out_of_provenance: 0, total: 2 });

  const one = await tp.request({ url: `/api/citations/${c[0].id}?tenant_id=acme`, token: acme.token });
  t.equal(one.status, 200);
  t.match(one.body, { id: c[0].id, verification_status: 'verified', match_type: 'exact', document_name: 'Finance_Policy 100%.txt' });
  const missing = await tp.request({ url: '/api/citations/00000000-0000-4000-8000-000000000000?tenant_id=acme', token: acme.token });
  t.equal(missing.status, 404);
  t.equal(missing.body.code, 'CITATION_NOT_FOUND');

  const unknown = '00000000-0000-4000-8000-0000000000aa';
  const queued = await tp.request({ method: 'POST', url: '/api/citations/verify?tenant_id=acme', token: acme.token, payload: { citation_ids: [c[0].id, c[1].id, unknown] } });
  t.equal(queued.status, 202);
  t.same(queued.body.queued.sort(), [c[0].id, c[1].id].sort());
  t.same(queued.body.not_found, [unknown]);
  await until(async () => {
    const s = await tp.request({ url: '/api/citations/stats?tenant_id=acme', token: acme.token });
    return s.body.pending === 0 && s.body;
  }, 'the bulk verification');
  const after = await tp.request({ url: `/api/citations/${c[0].id}?tenant_id=acme`, token: acme.token });
  t.match(after.body, { verification_status: 'verified', match_type: 'exact', verified_by_context_type: 'api_request', verified_by_context_id: 'user:acme-admin' });
  const failed = await tp.request({ url: `/api/citations/${c[1].id}?tenant_id=acme`, token: acme.token });
  t.match(failed.body, { verification_status: 'failed', match_type: 'not_found' });
});

t.test('auth: bearer or API key of the tenant; never another tenant\'s data', async (t) => {
  const { tp, acme, globex, c, g1 } = await world(t);
  t.equal((await tp.request({ url: '/api/citations?tenant_id=acme' })).status, 401, 'no credentials');
  t.equal((await tp.request({ url: '/api/citations?tenant_id=acme', token: 'garbage' })).status, 401);
  const foreign = await tp.request({ url: '/api/citations?tenant_id=acme', token: globex.token });
  t.equal(foreign.status, 403, 'another tenant\'s token');
  t.equal(foreign.body.code, 'TENANT_FORBIDDEN');

  const acmeKey = await apiKey(tp, acme.token, 'acme');
  const globexKey = await apiKey(tp, globex.token, 'globex');
  const byKey = await tp.request({ url: '/api/citations?tenant_id=acme', apiKey: acmeKey.key });
  t.equal(byKey.status, 200);
  t.equal(byKey.body.total, 0, 'an API key sees only its own client\'s citations (these four belong to no client)');
  const ofKey = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: c[0].chunk_id, quoted_text: 'due within 30 days' }, { type: 'chat_session', id: 'k1' }, acmeKey.clientId);
  const otherKey = await apiKey(tp, acme.token, 'acme', 'other-widget');
  const listed = await tp.request({ url: '/api/citations?tenant_id=acme', apiKey: acmeKey.key });
  t.same(listed.body.items.map((i: { id: string }) => i.id), [ofKey.id], 'its own client\'s citation');
  t.equal((await tp.request({ url: '/api/citations/stats?tenant_id=acme', apiKey: acmeKey.key })).body.total, 1, 'stats count its own only');
  t.equal((await tp.request({ url: `/api/citations/${ofKey.id}?tenant_id=acme`, apiKey: otherKey.key })).status, 404, 'another client\'s citation is not found');
  t.equal((await tp.request({ url: `/api/citations/${c[0].id}?tenant_id=acme`, apiKey: acmeKey.key })).status, 404, 'nor one of no client');
  const reverify = await tp.request({ method: 'POST', url: '/api/citations/verify?tenant_id=acme', apiKey: otherKey.key, payload: { citation_ids: [ofKey.id] } });
  t.same(reverify.body, { queued: [], not_found: [ofKey.id] }, 'nor re-verified by another client\'s key');
  t.equal((await tp.request({ url: '/api/citations?tenant_id=acme', token: acme.token })).body.total, 5, 'a member sees every client\'s');
  t.equal((await tp.request({ url: '/api/citations?tenant_id=acme', apiKey: globexKey.key })).status, 403, 'another tenant\'s key');
  t.equal((await tp.request({ url: '/api/citations?tenant_id=acme', apiKey: 'pk_acme_0000' })).status, 401, 'a wrong key');

  const theirs = await tp.request({ url: '/api/citations?tenant_id=globex', token: globex.token });
  t.same(theirs.body.items.map((i: { id: string }) => i.id), [g1.id], 'each tenant sees only its own');
  const crossRead = await tp.request({ url: `/api/citations/${g1.id}?tenant_id=acme`, token: acme.token });
  t.equal(crossRead.status, 404, 'another tenant\'s citation id is not found');
  const crossVerify = await tp.request({ method: 'POST', url: '/api/citations/verify?tenant_id=acme', token: acme.token, payload: { citation_ids: [g1.id] } });
  t.same(crossVerify.body, { queued: [], not_found: [g1.id] });
  t.equal((await tp.request({ url: `/api/citations/${c[0].id}?tenant_id=globex`, token: globex.token })).status, 404);
});

t.test('chat citation status: X-API-Key of the session\'s tenant and client only', async (t) => {
  const { tp, acme, globex } = await citationsFixture(t, { tenants: ['acme', 'globex'] }).then((f) => ({ tp: f.tp, acme: f.admins[0], globex: f.admins[1] }));
  const doc = await seedDocument(tp, 'acme', 'Terms.txt', [TEXT]);
  const [chunk] = doc.chunks;
  const widget = await apiKey(tp, acme.token, 'acme', 'widget');
  const other = await apiKey(tp, acme.token, 'acme', 'other');
  const foreign = await apiKey(tp, globex.token, 'globex', 'foreign');
  const api = tp.platform.server.plugins.citations.api;
  const session = { type: 'chat_session', id: 'sess-42', client_id: widget.clientId };
  await api.recordShown('acme', session, [chunk]);
  await api.resolveReply('acme', api.writeBlock([{ ref: '1', chunk_id: chunk.chunk_id, revision_id: chunk.revision_id, doc_name: 'Terms.txt', quote: 'late payments accrue 2%' }]), session);

  const url = `/api/chat/sess-42/citation/${chunk.chunk_id}/${chunk.revision_id}/status`;
  const ok = await tp.request({ url, apiKey: widget.key });
  t.equal(ok.status, 200);
  t.match(ok.body, { found: true, verification_status: 'verified', match_type: 'exact', match_score: 1, verified_at: String });
  t.equal(TEXT.slice(ok.body.matched_span_start, ok.body.matched_span_end), 'late payments accrue 2%');
  t.same(Object.keys(ok.body).sort(), ['found', 'match_score', 'match_type', 'matched_span_end', 'matched_span_start', 'verification_status', 'verified_at']);

  const nothing = { found: false, verification_status: null, match_type: null, match_score: null, matched_span_start: null, matched_span_end: null, verified_at: null };
  t.same((await tp.request({ url, apiKey: other.key })).body, nothing, 'another client of the tenant');
  t.same((await tp.request({ url, apiKey: foreign.key })).body, nothing, 'another tenant\'s key: nothing leaked');
  t.same((await tp.request({ url: url.replace('sess-42', 'sess-43'), apiKey: widget.key })).body, nothing, 'another session');
  t.same((await tp.request({ url: url.replace(chunk.revision_id, 'older'), apiKey: widget.key })).body, nothing, 'another revision');
  const wrong = await tp.request({ url, apiKey: 'pk_acme_deadbeef' });
  t.equal(wrong.status, 401);
  t.notMatch(JSON.stringify(wrong.body), /verified|sess-42/);
  t.equal((await tp.request({ url })).status, 401, 'no key');
  const bearer = await tp.request({ url, token: acme.token });
  t.equal(bearer.status, 403, 'a user\'s bearer token is not this endpoint\'s credential (embed tokens are: plugins/embed/test)');
  t.equal(bearer.body.code, 'API_KEY_REQUIRED');
  t.equal((await tp.request({ url: `/api/chat/sess-42/citation/nope/${chunk.revision_id}/status`, apiKey: widget.key })).status, 400);
});

t.test('the routes are documented in the OpenAPI document', async (t) => {
  const { tp } = await citationsFixture(t);
  const docs = await tp.request({ url: '/docs/openapi.json' });
  t.equal(docs.status, 200);
  for (const path of ['/api/citations', '/api/citations/stats', '/api/citations/verify', '/api/citations/{citation_id}', '/api/chat/{session_id}/citation/{chunk_id}/{revision_id}/status']) {
    t.ok(docs.body.paths[path], path);
  }
  const listParams = docs.body.paths['/api/citations'].get.parameters.map((p: { name: string }) => p.name);
  for (const name of ['tenant_id', 'document_id', 'collection_id', 'execution_context_type', 'execution_context_id', 'verification_status', 'document_name', 'date_from', 'date_to', 'skip', 'limit']) {
    t.ok(listParams.includes(name), `list parameter ${name}`);
  }
});

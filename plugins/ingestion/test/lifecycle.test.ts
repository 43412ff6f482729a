// Revisions, reingest (of a pending document too; 409 only while
// ingesting), the per-tenant quota (429 with Retry-After, stale slots
// released after INGESTION_QUOTA_TTL), retry of chosen statuses, aggregate status figures. A loopback embeddings server that
// holds its answers keeps documents in `ingesting` for as long as a test needs.
import t from 'tap';
import { sql } from 'kysely';
import { startTestPlatform, tenantWithAdmin, until } from 'agent-platform/sdk/testing';
import { corruptPdf } from './fixtures.ts';
import { startEmbeddingsServer } from './embeddings-server.ts';
import { MANIFEST, chunksOf, createCollection, ingest, ingestionFixture, search, statusOf, upload, uploaded, waitFor } from './helpers.ts';

const DIMS = '64';

function embedderEnv(url: string, extra: Record<string, string> = {}) {
  return { INGESTION_EMBEDDING_BASE_URL: url, INGESTION_EMBEDDING_DIMS: DIMS, INGESTION_EMBEDDING_RETRIES: '0', ...extra };
}

t.test('reingest creates revision 2; revision 1 and its chunks remain; search uses revision 2', async (t) => {
  const { tp, token } = await ingestionFixture(t);
  const collection = await createCollection(tp, token, 'Revisions');
  const first = await ingest(tp, token, collection, 'policy.txt', 'Travel policy: economy class for flights under six hours.');
  const rev1 = first.status.revision_id;
  const again = await tp.request({ method: 'POST', url: `/api/admin/documents/${first.id}/reingest?tenant_id=acme`, token });
  t.equal(again.status, 202);
  t.equal(again.body.ingestion_status, 'ingesting');
  const second = await waitFor(tp, token, first.id);
  t.equal(second.ingestion_status, 'ready');
  t.not(second.revision_id, rev1);
  const detail = await tp.request({ url: `/api/admin/documents/${first.id}`, token });
  t.same(detail.body.revisions.map((r: { revision_number: number; is_latest: boolean }) => [r.revision_number, r.is_latest]), [[2, true], [1, false]]);
  const old = await chunksOf(tp, token, first.id, 1);
  t.equal(old.revision_id, rev1);
  t.ok(old.items.length >= 1, 'revision 1 keeps its chunks');
  const hits = await search(tp, token, 'economy flights');
  t.equal(hits.results.length, 1, 'only the latest revision is searchable');
  t.equal(hits.results[0].revision_id, second.revision_id);
  t.equal((await tp.request({ method: 'POST', url: '/api/admin/documents/00000000-0000-4000-8000-000000000000/reingest', token })).status, 404);
});

t.test('409 on reingest while ingesting; 429 past the concurrency limit; the stale slot is released after the TTL', async (t) => {
  const embeddings = await startEmbeddingsServer(t, Number(DIMS));
  const { tp, token } = await ingestionFixture(t, { env: embedderEnv(embeddings.url, { INGESTION_MAX_CONCURRENT: '2' }) });
  const collection = await createCollection(tp, token, 'Quota');
  const done = await ingest(tp, token, collection, 'z.txt', 'Zeta document about valves.');
  t.equal(done.status.ingestion_status, 'ready');
  embeddings.mode = 'hold';
  const a = await uploaded(tp, token, collection, 'a.txt', 'Alpha document about turbines.');
  const b = await uploaded(tp, token, collection, 'b.txt', 'Beta document about generators.');
  await until(async () => embeddings.held() >= 2 || undefined, 'both runs waiting in enrich', 60_000);
  const held = await statusOf(tp, token, a);
  t.equal(held.ingestion_status, 'ingesting');
  t.equal(held.stage, 'enrich');
  t.ok(held.progress_pct >= 60 && held.progress_pct < 100);

  const conflict = await tp.request({ method: 'POST', url: `/api/admin/documents/${a}/reingest`, token });
  t.equal(conflict.status, 409);
  t.equal(conflict.body.code, 'DOCUMENT_INGESTING');

  const over = await upload(tp, token, collection, 'c.txt', 'Gamma document about transformers.');
  t.equal(over.status, 429);
  t.equal(over.body.code, 'INGESTION_QUOTA_EXCEEDED');
  t.match(String(over.headers['retry-after']), /^\d+$/);
  t.equal((await tp.request({ url: `/api/admin/collections/${collection}/documents`, token })).body.total, 3, 'the refused upload left nothing');

  const reingestOver = await tp.request({ method: 'POST', url: `/api/admin/documents/${done.id}/reingest`, token });
  t.equal(reingestOver.status, 429, 'a reingest past the limit is refused too');
  t.equal(reingestOver.body.code, 'INGESTION_QUOTA_EXCEEDED');
  t.match(String(reingestOver.headers['retry-after']), /^\d+$/);
  const untouched = await tp.request({ url: `/api/admin/documents/${done.id}`, token });
  t.equal(untouched.body.ingestion_status, 'ready', 'the refused reingest changed nothing');
  t.equal(untouched.body.revisions.length, 1);

  embeddings.release();
  await waitFor(tp, token, a, ['ready']);
  await waitFor(tp, token, b, ['ready']);
  t.equal((await upload(tp, token, collection, 'c.txt', 'Gamma document about transformers.')).status, 202, 'slots free again');
});

t.test('reingest of a pending document (queued, waiting for a worker) is allowed: its queued run is superseded, its slot reused', async (t) => {
  // Workers not started yet: uploads stay pending, each holding a quota slot with its first job queued.
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: MANIFEST, INGESTION_MAX_CONCURRENT: '2' } });
  const { token } = await tenantWithAdmin(tp, 'acme');
  const collection = await createCollection(tp, token, 'Queued');
  const a = await uploaded(tp, token, collection, 'a.txt', 'Alpha document about turbines.');
  const b = await uploaded(tp, token, collection, 'b.txt', 'Beta document about generators.');
  t.equal((await statusOf(tp, token, a)).ingestion_status, 'pending');

  const again = await tp.request({ method: 'POST', url: `/api/admin/documents/${a}/reingest`, token });
  t.equal(again.status, 202, 'a pending document may be re-ingested, even with every slot taken (it reuses its own)');
  t.equal(again.body.ingestion_status, 'ingesting');
  const over = await upload(tp, token, collection, 'c.txt', 'Gamma document about transformers.');
  t.equal(over.status, 429, 'the re-ingested document still holds exactly one slot');

  await tp.platform.start();
  t.equal((await waitFor(tp, token, a)).ingestion_status, 'ready');
  t.equal((await waitFor(tp, token, b)).ingestion_status, 'ready');
  const detail = await tp.request({ url: `/api/admin/documents/${a}`, token });
  t.same(detail.body.revisions.map((r: { revision_number: number; status: string }) => [r.revision_number, r.status]), [[1, 'ready']],
    'the superseded queued run built nothing: one run, one revision');
  t.equal((await upload(tp, token, collection, 'c.txt', 'Gamma document about transformers.')).status, 202, 'both slots free again');
});

t.test('a stale quota slot stops counting after INGESTION_QUOTA_TTL', async (t) => {
  const embeddings = await startEmbeddingsServer(t, Number(DIMS));
  embeddings.mode = 'hold';
  const { tp, token } = await ingestionFixture(t, { env: embedderEnv(embeddings.url, { INGESTION_MAX_CONCURRENT: '1', INGESTION_QUOTA_TTL: '2' }) });
  const collection = await createCollection(tp, token, 'Stale');
  await uploaded(tp, token, collection, 'a.txt', 'A run that hangs in enrichment.');
  await until(async () => embeddings.held() >= 1 || undefined, 'the run waiting in enrich', 60_000);
  await new Promise((resolve) => setTimeout(resolve, 2500));
  const next = await upload(tp, token, collection, 'b.txt', 'The next upload after the TTL.');
  t.equal(next.status, 202, 'the hung run\'s slot went stale');
});

t.test('retry resets only the requested statuses; documents ready or ingesting are untouched', async (t) => {
  const { tp, token } = await ingestionFixture(t);
  const collection = await createCollection(tp, token, 'Retry');
  const broken = await ingest(tp, token, collection, 'broken.pdf', corruptPdf());
  const good = await ingest(tp, token, collection, 'good.txt', 'A perfectly fine document.');
  t.equal(broken.status.ingestion_status, 'error');
  t.equal(good.status.ingestion_status, 'ready');

  const none = await tp.request({ method: 'POST', url: `/api/admin/collections/${collection}/retry-ingestion?status=pending`, token });
  t.same(none.body, { collection_id: collection, statuses: ['pending'], reset_count: 0 });
  const retried = await tp.request({ method: 'POST', url: `/api/admin/collections/${collection}/retry-ingestion`, token });
  t.equal(retried.status, 200);
  t.same(retried.body, { collection_id: collection, statuses: ['error'], reset_count: 1 });
  // The reconciler re-drives it: it fails again (same bytes), in a second run.
  await until(async () => {
    const detail = (await tp.request({ url: `/api/admin/documents/${broken.id}`, token })).body;
    return detail.revisions.length === 2 && detail.ingestion_status === 'error' ? detail : undefined;
  }, 'the second run of the broken document', 60_000);
  const goodAfter = await tp.request({ url: `/api/admin/documents/${good.id}`, token });
  t.equal(goodAfter.body.revisions.length, 1, 'the ready document was not re-run');
  t.equal(goodAfter.body.completed_at, (await tp.request({ url: `/api/admin/documents/${good.id}`, token })).body.completed_at);
  t.equal((await tp.request({ method: 'POST', url: `/api/admin/collections/${collection}/retry-ingestion?status=ready`, token })).status, 400);
  t.equal((await tp.request({ method: 'POST', url: '/api/admin/collections/99999/retry-ingestion', token })).status, 404);
});

t.test('aggregate status of a collection tree with known completions', async (t) => {
  const embeddings = await startEmbeddingsServer(t, Number(DIMS));
  const { tp, token } = await ingestionFixture(t, { env: embedderEnv(embeddings.url) });
  const parent = await createCollection(tp, token, 'Parent');
  const child = await createCollection(tp, token, 'Child', parent);
  await ingest(tp, token, parent, 'one.txt', 'First document text.');
  await ingest(tp, token, parent, 'two.txt', 'Second document text.');
  await ingest(tp, token, child, 'three.txt', 'Third document text.');
  await ingest(tp, token, child, 'bad.pdf', corruptPdf());

  const tree = await tp.request({ url: `/api/admin/collections/${parent}/ingestion-status?window_minutes=60`, token });
  t.equal(tree.status, 200);
  t.same(tree.body.counts, { pending: 0, ingesting: 0, ready: 3, error: 1, other: 0 });
  t.equal(tree.body.collection_id, parent);
  t.equal(tree.body.total, 4);
  t.equal(tree.body.completed_in_window, 4);
  t.equal(tree.body.drain_window_minutes, 60);
  t.equal(tree.body.drain_rate_per_min, 0.07);
  t.equal(tree.body.eta_seconds, null, 'nothing outstanding');
  t.equal(tree.body.top_errors.length, 1);
  t.equal(tree.body.top_errors[0].count, 1);
  t.match(tree.body.top_errors[0].reason, /Invalid PDF/);

  const own = await tp.request({ url: `/api/admin/collections/${parent}/ingestion-status?include_descendants=false&window_minutes=1`, token });
  t.same(own.body.counts, { pending: 0, ingesting: 0, ready: 2, error: 0, other: 0 });
  t.equal(own.body.completed_in_window, 2);
  t.equal(own.body.drain_rate_per_min, 2);

  embeddings.mode = 'hold';
  const slow = await uploaded(tp, token, parent, 'slow.txt', 'A document held in enrichment.');
  await until(async () => embeddings.held() >= 1 || undefined, 'held in enrich', 60_000);
  const busy = await tp.request({ url: `/api/admin/collections/${parent}/ingestion-status?window_minutes=60`, token });
  t.equal(busy.body.counts.ingesting, 1);
  // 4 completions in 60 minutes: 1 outstanding drains in 15 minutes.
  t.equal(busy.body.eta_seconds, 900);
  embeddings.release();
  await waitFor(tp, token, slow, ['ready']);

  for (const bad of ['0', '1441', 'x']) {
    t.equal((await tp.request({ url: `/api/admin/collections/${parent}/ingestion-status?window_minutes=${bad}`, token })).status, 400, `window_minutes=${bad}`);
  }
  t.equal((await tp.request({ url: '/api/admin/collections/4242/ingestion-status', token })).status, 404);
});

t.test('embeddings: hybrid search through the endpoint; a failing endpoint still ends ready and keyword-searchable', async (t) => {
  const embeddings = await startEmbeddingsServer(t, Number(DIMS));
  const { tp, token } = await ingestionFixture(t, {
    env: embedderEnv(embeddings.url, { INGESTION_EMBEDDING_API_KEY: 'sk-test-secret', INGESTION_EMBEDDING_BATCH: '2', INGESTION_CHUNK_SIZE: '20', INGESTION_CHUNK_OVERLAP: '0' }),
    captureLogs: true,
  });
  const collection = await createCollection(tp, token, 'Vectors');
  const text = Array.from({ length: 6 }, (_, i) => `Paragraph ${i} talks about subject number ${i} with several words to fill the chunk up nicely.`).join('\n\n');
  const ok = await ingest(tp, token, collection, 'vectors.txt', text);
  t.equal(ok.status.ingestion_status, 'ready');
  t.ok(embeddings.requests.length >= 2);
  t.ok(embeddings.requests.every((r) => r.inputs.length <= 2), 'batches of INGESTION_EMBEDDING_BATCH');
  t.equal(embeddings.requests[0].authorization, 'Bearer sk-test-secret');
  t.equal(embeddings.requests[0].model, 'text-embedding-3-small');
  const chunks = await chunksOf(tp, token, ok.id);
  t.ok(chunks.items.every((c: { embedding_model: string }) => c.embedding_model === 'text-embedding-3-small'));
  const hybrid = await search(tp, token, 'subject number 3');
  t.equal(hybrid.mode, 'hybrid');
  t.match(hybrid.results[0].text, /subject number 3/);
  const hnsw = () => sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE indexname = ${`ingestion_chunks_hnsw_${DIMS}`}`
    .execute(tp.platform.server.plugins.core.services.db);
  t.match((await hnsw()).rows[0]?.indexdef, new RegExp(`USING hnsw .*vector\\(${DIMS}\\).* WHERE .*embedding_dims = ${DIMS}.*is_current`),
    'the boot made the HNSW index of the configured dimension (the migration has 384, 768, 1024, 1536)');
  const again = await startTestPlatform(t, { databaseUrl: tp.databaseUrl, env: { PLATFORM_MANIFEST: MANIFEST, ...embedderEnv(embeddings.url) } });
  t.equal((await hnsw()).rows.length, 1, 'a second boot on the same database finds it made');
  await again.stop();

  embeddings.mode = 'fail';
  const failing = await ingest(tp, token, collection, 'keyword.txt', 'Zircon crystals are found in granite.');
  t.equal(failing.status.ingestion_status, 'ready', 'enrichment failure never blocks ready');
  const detail = await tp.request({ url: `/api/admin/documents/${failing.id}`, token });
  t.equal(detail.body.revisions[0].enrichment.embeddings.status, 'failed');
  t.match(detail.body.revisions[0].enrichment.embeddings.error, /500/);
  const keyword = await search(tp, token, 'zircon granite');
  t.equal(keyword.mode, 'keyword', 'the query could not be embedded either');
  t.equal(keyword.results[0].document_id, failing.id);
  t.notOk(tp.logs.some((line) => line.includes('sk-test-secret')), 'the API key never reaches the logs');
});

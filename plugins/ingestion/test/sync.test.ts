// Document sync sources against real files and a real HTTP server: new items
// are ingested, changed items get a new revision, removed items are marked
// deleted; source status, errors and retry as for collections; a directory is
// a path relative to the tenant's folder `<root>/<tenant_id>/` and nothing
// outside it can be synced or probed.
import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { corruptPdf } from './fixtures.ts';
import { createCollection, ingestionFixture, search } from './helpers.ts';

async function documentsOf(tp: any, token: string, collection: number, extra = '') {
  return (await tp.request({ url: `/api/admin/collections/${collection}/documents?limit=100${extra}`, token })).body.items as any[];
}

async function syncedOnce(tp: any, token: string, source: number, previous: string | null) {
  const asked = await tp.request({ method: 'POST', url: `/api/admin/document-sync/sources/${source}/sync`, token });
  if (asked.status !== 202) throw new Error(`sync: ${asked.status} ${JSON.stringify(asked.body)}`);
  return until(async () => {
    const body = (await tp.request({ url: `/api/admin/document-sync/sources/${source}`, token })).body;
    return body.last_sync.finished_at && body.last_sync.finished_at !== previous && body.last_sync.status !== 'running' ? body : undefined;
  }, 'the sync to finish', 60_000);
}

t.test('a directory source: new, changed and removed files; status, errors and retry', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'ingestion-sync-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const folder = path.join(root, 'acme', 'manuals');
  await import('node:fs/promises').then((fs) => fs.mkdir(path.join(folder, 'sub'), { recursive: true }));
  await writeFile(path.join(folder, 'alpha.txt'), 'Alpha manual about compressors.');
  await writeFile(path.join(folder, 'sub', 'beta.md'), '# Beta\n\nBeta manual about chillers.');
  await writeFile(path.join(folder, 'broken.pdf'), corruptPdf());
  await writeFile(path.join(folder, 'ignored.log'), 'not matched by the pattern');

  const { tp, token } = await ingestionFixture(t, { env: { INGESTION_SYNC_ROOTS: root } });
  const collection = await createCollection(tp, token, 'Synced');
  const outside = await tp.request({ method: 'POST', url: '/api/admin/document-sync/sources', token, payload: { name: 'etc', collection_id: collection, kind: 'directory', directory: '/etc' } });
  t.equal(outside.status, 400);
  t.equal(outside.body.code, 'SYNC_DIRECTORY_FORBIDDEN');
  const badCron = await tp.request({ method: 'POST', url: '/api/admin/document-sync/sources', token, payload: { name: 'x', collection_id: collection, kind: 'directory', directory: 'manuals', schedule: 'every minute' } });
  t.equal(badCron.status, 400);

  const created = await tp.request({
    method: 'POST', url: '/api/admin/document-sync/sources', token,
    payload: { name: 'manuals', collection_id: collection, kind: 'directory', directory: 'manuals', pattern: '**/*.{txt,md,pdf}', schedule: '*/5 * * * *' },
  });
  t.equal(created.status, 201);
  t.equal(created.body.directory, 'manuals', 'kept relative to the tenant folder');
  const source = created.body.source_id;
  const first = await syncedOnce(tp, token, source, null);
  t.same(first.last_sync.stats, { added: 3, changed: 0, unchanged: 0, busy: 0, removed: 0, failed: 0 });
  await until(async () => {
    const status = (await tp.request({ url: `/api/admin/document-sync/sources/${source}/status`, token })).body;
    return status.counts.pending + status.counts.ingesting === 0 && status.total === 3 ? status : undefined;
  }, 'the synced documents to be ingested', 120_000);
  const status = (await tp.request({ url: `/api/admin/document-sync/sources/${source}/status?window_minutes=10`, token })).body;
  t.same(status.counts, { pending: 0, ingesting: 0, ready: 2, error: 1, other: 0 });
  t.equal(status.source_id, source);
  t.equal(status.completed_in_window, 3);
  const errors = (await tp.request({ url: `/api/admin/document-sync/sources/${source}/errors`, token })).body;
  t.equal(errors.total, 1);
  t.equal(errors.items[0].filename, 'broken.pdf');
  const retry = await tp.request({ method: 'POST', url: `/api/admin/document-sync/sources/${source}/retry-ingestion?status=error`, token });
  t.same(retry.body, { source_id: source, statuses: ['error'], reset_count: 1 });

  // Change one file, remove one, add one.
  await writeFile(path.join(folder, 'alpha.txt'), 'Alpha manual, second edition, about rotary screw compressors.');
  await rm(path.join(folder, 'sub', 'beta.md'));
  await writeFile(path.join(folder, 'gamma.txt'), 'Gamma manual about cooling towers.');
  await until(async () => ((await documentsOf(tp, token, collection)).every((d) => d.ingestion_status !== 'pending' && d.ingestion_status !== 'ingesting')) || undefined, 'retry done', 60_000);
  const second = await syncedOnce(tp, token, source, first.last_sync.finished_at);
  t.same(second.last_sync.stats, { added: 1, changed: 1, unchanged: 1, busy: 0, removed: 1, failed: 0 });
  await until(async () => {
    const docs = await documentsOf(tp, token, collection);
    return docs.length === 3 && docs.every((d) => ['ready', 'error'].includes(d.ingestion_status)) ? docs : undefined;
  }, 'the second sync ingested', 120_000);
  const docs = await documentsOf(tp, token, collection);
  const alpha = docs.find((d) => d.filename === 'alpha.txt');
  const detail = (await tp.request({ url: `/api/admin/documents/${alpha.document_id}`, token })).body;
  t.equal(detail.revisions.length, 2, 'the changed file got a new revision');
  t.equal((await search(tp, token, 'rotary screw')).results[0].document_id, alpha.document_id);
  t.same((await search(tp, token, 'chillers')).results, [], 'the removed file left search');
  const deleted = (await documentsOf(tp, token, collection, '&include_deleted=true')).find((d) => d.filename === 'beta.md');
  t.equal(deleted.deleted, true);

  const listed = (await tp.request({ url: '/api/admin/document-sync/sources', token })).body;
  t.equal(listed.total, 1);
  t.equal(listed.items[0].schedule, '*/5 * * * *');
  t.equal((await tp.request({ method: 'DELETE', url: `/api/admin/document-sync/sources/${source}`, token })).status, 204);
  t.equal((await tp.request({ url: `/api/admin/document-sync/sources/${source}/status`, token })).status, 404);
});

t.test('a URL source fetches its URLs (private addresses allowed by setting)', async (t) => {
  const server = http.createServer((request, response) => {
    if (request.url === '/docs/faq.txt') response.writeHead(200, { 'content-type': 'text/plain' }).end('Frequently asked questions about invoices.');
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const { tp, token } = await ingestionFixture(t, { env: { INGESTION_SYNC_ALLOW_PRIVATE_NETWORKS: 'true' } });
  const collection = await createCollection(tp, token, 'Web');
  const created = await tp.request({
    method: 'POST', url: '/api/admin/document-sync/sources', token,
    payload: { name: 'faq', collection_id: collection, kind: 'urls', urls: [`${base}/docs/faq.txt`, `${base}/missing.txt`] },
  });
  t.equal(created.status, 201);
  const synced = await syncedOnce(tp, token, created.body.source_id, null);
  t.equal(synced.last_sync.status, 'partial');
  t.equal(synced.last_sync.stats.added, 1);
  t.match(synced.last_sync.errors[0], { item: `${base}/missing.txt`, error: 'HTTP 404' });
  await until(async () => ((await search(tp, token, 'invoices')).results.length > 0) || undefined, 'the fetched page searchable', 60_000);
});

t.test('a URL source refuses private addresses by default', async (t) => {
  const { tp, token } = await ingestionFixture(t);
  const collection = await createCollection(tp, token, 'Web');
  const created = await tp.request({ method: 'POST', url: '/api/admin/document-sync/sources', token, payload: { name: 'local', collection_id: collection, kind: 'urls', urls: ['http://127.0.0.1:9/x.txt'] } });
  const synced = await syncedOnce(tp, token, created.body.source_id, null);
  t.equal(synced.last_sync.status, 'failed');
  t.match(synced.last_sync.errors[0].error, /private address/);
});

// Sync sources and other tenants: a directory is
// confined to the tenant's folder `<root>/<tenant_id>/` (relative paths only,
// symlinks checked at every sync) and a path outside it gets one error whether
// or not something is there; a URL body is read up to INGESTION_MAX_DOC_SIZE
// even when chunked; a tenant's stalled sync does not hold up another
// tenant's sync.
import http from 'node:http';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { tenantWithAdmin, until } from 'agent-platform/sdk/testing';
import { createCollection, ingestionFixture } from './helpers.ts';

const SOURCES = '/api/admin/document-sync/sources';

async function requestSync(tp: any, token: string, source: number) {
  const asked = await tp.request({ method: 'POST', url: `${SOURCES}/${source}/sync`, token });
  if (asked.status !== 202) throw new Error(`sync: ${asked.status} ${JSON.stringify(asked.body)}`);
}

async function sourceOf(tp: any, token: string, source: number) {
  return (await tp.request({ url: `${SOURCES}/${source}`, token })).body;
}

function finished(tp: any, token: string, source: number, timeoutMs = 60_000) {
  return until(async () => {
    const body = await sourceOf(tp, token, source);
    return body.last_sync.finished_at && body.last_sync.status !== 'running' ? body : undefined;
  }, `source ${source} synced`, timeoutMs);
}

async function listen(t: any, handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

t.test('a tenant syncs only inside <root>/<tenant_id>/, and cannot tell what exists outside', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'ingestion-sync-roots-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await mkdir(path.join(root, 'acme', 'manuals'), { recursive: true });
  await writeFile(path.join(root, 'acme', 'manuals', 'secret.txt'), 'Acme internal manual about the vault.');
  await mkdir(path.join(root, 'beta', 'docs'), { recursive: true });
  await writeFile(path.join(root, 'beta', 'docs', 'own.txt'), 'Beta manual about pumps.');
  await symlink(path.join(root, 'acme'), path.join(root, 'beta', 'link'));

  const { tp, token: acmeToken } = await ingestionFixture(t, { env: { INGESTION_SYNC_ROOTS: root } });
  const { token } = await tenantWithAdmin(tp, 'beta');
  const collection = await createCollection(tp, token, 'Beta docs');
  const create = (directory: string) => tp.request({ method: 'POST', url: SOURCES, token, payload: { name: 'x', collection_id: collection, kind: 'directory', directory } });

  const refused: [string, string][] = [
    ['climbing to an existing folder', '../acme/manuals'],
    ['climbing to a missing folder', '../acme/nothing-here'],
    ['climbing past the root', '../../../../etc'],
    ['absolute, existing', path.join(root, 'acme', 'manuals')],
    ['absolute, missing', path.join(root, 'acme', 'nothing-here')],
    ['absolute, the own folder', path.join(root, 'beta', 'docs')],
    ['absolute, outside the roots', '/etc'],
    ['through a symlink, existing', 'link/manuals'],
    ['through a symlink, missing', 'link/nothing-here'],
    ['through a symlink, a file', 'link/manuals/secret.txt'],
  ];
  const bodies: Record<string, unknown>[] = [];
  for (const [what, directory] of refused) {
    const answer = await create(directory);
    t.equal(answer.status, 400, what);
    t.equal(answer.body.code, 'SYNC_DIRECTORY_FORBIDDEN', what);
    bodies.push(answer.body);
  }
  t.ok(bodies.every((body) => JSON.stringify(body) === JSON.stringify(bodies[0])), 'one error body whatever is (or is not) there');
  t.notMatch(JSON.stringify(bodies[0]), /acme|manuals|nothing-here|etc/, 'the message names no path');

  const missing = await create('not-yet');
  t.equal(missing.status, 400);
  t.equal(missing.body.code, 'SYNC_DIRECTORY_NOT_FOUND', 'a missing folder inside the own folder says so');

  // The tenant's own folder works, relative; acme's own folder works for acme.
  const own = await create('./docs/');
  t.equal(own.status, 201);
  t.equal(own.body.directory, 'docs');
  const acmeCollection = await createCollection(tp, acmeToken, 'Acme docs');
  const acmeOwn = await tp.request({ method: 'POST', url: SOURCES, token: acmeToken, payload: { name: 'm', collection_id: acmeCollection, kind: 'directory', directory: 'manuals' } });
  t.equal(acmeOwn.status, 201);

  const patched = await tp.request({ method: 'PATCH', url: `${SOURCES}/${own.body.source_id}`, token, payload: { directory: '../acme/manuals' } });
  t.equal(patched.status, 400);
  t.same(patched.body, bodies[0], 'a change is checked the same way');

  // A symlinked folder inside the own folder is not followed: only the tenant's own file is synced.
  await symlink(path.join(root, 'acme', 'manuals'), path.join(root, 'beta', 'docs', 'peek'));
  await requestSync(tp, token, own.body.source_id);
  const first = await finished(tp, token, own.body.source_id);
  t.equal(first.last_sync.status, 'succeeded');
  t.same(first.last_sync.stats, { added: 1, changed: 0, unchanged: 0, busy: 0, removed: 0, failed: 0 }, 'peek/secret.txt was not listed');

  // A symlink put in place after creation is caught at sync time (realpath again).
  await rm(path.join(root, 'beta', 'docs'), { recursive: true });
  await symlink(path.join(root, 'acme', 'manuals'), path.join(root, 'beta', 'docs'));
  await requestSync(tp, token, own.body.source_id);
  const synced = await until(async () => {
    const body = await sourceOf(tp, token, own.body.source_id);
    return body.last_sync.finished_at !== first.last_sync.finished_at && body.last_sync.status !== 'running' ? body : undefined;
  }, 'the second sync');
  t.equal(synced.last_sync.status, 'failed');
  t.equal(synced.last_sync.stats.added, 0, 'nothing of acme was read');
  t.match(synced.last_sync.errors[0].error, /must be a relative path inside this tenant's folder/);
  const documents = (await tp.request({ url: `/api/admin/collections/${collection}/documents`, token })).body;
  t.same(documents.items.map((d: { filename: string }) => d.filename), ['own.txt'], 'only the tenant\'s own file, never acme\'s');
});

t.test('a chunked URL body past INGESTION_MAX_DOC_SIZE fails that item at the limit, without reading the rest', async (t) => {
  const limit = 1024 * 1024;
  const served = { bytes: 0, closed: false };
  const base = await listen(t, async (request, response) => {
    if (request.url === '/small.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('A small page about valves.');
      return;
    }
    // No Content-Length: chunked, up to 256 MiB (would be endless; bounded so a regression cannot exhaust memory).
    response.writeHead(200, { 'content-type': 'text/plain' });
    let drained = () => {};
    response.on('close', () => {
      served.closed = true;
      drained();
    });
    response.on('drain', () => drained());
    const chunk = Buffer.alloc(64 * 1024, 'a');
    while (served.bytes < 256 * 1024 * 1024 && !served.closed) {
      served.bytes += chunk.length;
      if (!response.write(chunk)) await new Promise<void>((resolve) => (drained = resolve));
    }
    response.end();
  });
  const { tp, token } = await ingestionFixture(t, { env: { INGESTION_SYNC_ALLOW_PRIVATE_NETWORKS: 'true', INGESTION_MAX_DOC_SIZE: String(limit) } });
  const collection = await createCollection(tp, token, 'Web');
  const created = await tp.request({ method: 'POST', url: SOURCES, token, payload: { name: 'big', collection_id: collection, kind: 'urls', urls: [`${base}/endless.txt`, `${base}/small.txt`] } });
  t.equal(created.status, 201);
  await requestSync(tp, token, created.body.source_id);
  const synced = await finished(tp, token, created.body.source_id);
  t.equal(synced.last_sync.status, 'partial');
  t.equal(synced.last_sync.stats.added, 1, 'the other URL is synced');
  t.same(synced.last_sync.errors, [{ item: `${base}/endless.txt`, error: `larger than ${limit} bytes (INGESTION_MAX_DOC_SIZE)` }]);
  await until(async () => served.closed || undefined, 'the connection closed by the reader');
  t.ok(served.bytes < 32 * 1024 * 1024, `the reader stopped at the limit (${served.bytes} bytes served)`);
});

t.test('a stalled sync of one tenant does not hold up another tenant\'s sync', async (t) => {
  let release = () => {};
  const stalled = new Promise<void>((resolve) => (release = resolve));
  t.teardown(() => release());
  let stalling = 0;
  const base = await listen(t, async (request, response) => {
    if (request.url === '/stall.txt') {
      stalling++;
      await stalled;
      response.writeHead(200, { 'content-type': 'text/plain' }).end('A page that came late.');
    } else {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('A page about compressors.');
    }
  });
  const { tp, token: acme } = await ingestionFixture(t, { env: { INGESTION_SYNC_ALLOW_PRIVATE_NETWORKS: 'true' } });
  const { token: beta } = await tenantWithAdmin(tp, 'beta');
  const source = async (token: string, url: string) => {
    const collection = await createCollection(tp, token, 'Web');
    const created = await tp.request({ method: 'POST', url: SOURCES, token, payload: { name: 'web', collection_id: collection, kind: 'urls', urls: [url] } });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
    return created.body.source_id as number;
  };
  const slow = await source(acme, `${base}/stall.txt`);
  const quick = await source(beta, `${base}/quick.txt`);

  await requestSync(tp, acme, slow);
  await until(async () => stalling > 0 || undefined, 'the slow sync to be fetching');
  await requestSync(tp, beta, quick);
  const done = await finished(tp, beta, quick, 20_000);
  t.equal(done.last_sync.status, 'succeeded');
  t.equal((await sourceOf(tp, acme, slow)).last_sync.status, 'running', 'while the other tenant\'s sync is still stalled');

  release();
  t.equal((await finished(tp, acme, slow)).last_sync.status, 'succeeded');
});

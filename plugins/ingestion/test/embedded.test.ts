// The embedded default (no DATABASE_URL: PGlite in-process) with ingestion
// loaded and nothing configured (no model path, no embeddings endpoint):
// `platform serve` boots offline, says "keyword only" in /readyz, and a text
// file, a Markdown file and an image (OCR with the packaged language data)
// reach `ready` and are found by search and search_documents, with no
// connection leaving loopback (a preload refuses and reports any). The server
// starts on a copy of the manifest's migrated template (built by migrating
// PGlite once per run): what is proved is what comes after the first start.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { serveFresh } from '../../../test/embedded-serve.ts';
import { encodedImage } from './fixtures.ts';
import { multipart } from './helpers.ts';

const MANIFEST = 'test/fixtures/manifests/ingestion-embedded.yaml';

t.test('embedded PGlite, nothing configured: offline, keyword only, uploads reach ready and are searchable', { timeout: 400_000 }, async (t) => {
  const { base, token, output } = await serveFresh(t, { env: { PLATFORM_MANIFEST: MANIFEST }, noNetwork: true, from: 'migrated-template' });
  const call = async (url: string, options: { method?: string; body?: unknown; raw?: { payload: Buffer; headers: Record<string, string> } } = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'x-tenant-id': 'acme', ...(options.raw?.headers ?? {}) };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${url}`, {
      method: options.method ?? 'GET', headers,
      body: options.raw ? new Uint8Array(options.raw.payload) : options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: await res.json() as any };
  };

  const ready = await call('/readyz');
  t.equal(ready.status, 200);
  t.match(ready.body.details.ingestion.search, /keyword only/);
  t.equal(ready.body.details.ingestion.embeddings, 'none');

  t.equal((await call('/api/admin/tenants', { method: 'POST', body: { id: 'acme' } })).status, 201);
  const collection = await call('/api/admin/collections', { method: 'POST', body: { name: 'Offline' } });
  t.equal(collection.status, 201);
  const files: [string, Buffer | string][] = [
    ['pumps.txt', 'The booster pump at the north station needs a new mechanical seal.'],
    ['guide.md', '# Valves\n\nGate valves are exercised twice a year.\n\n## Lubrication\n\nUse lithium grease on the stems.\n'],
    ['plate.png', await encodedImage(['Hydraulic valve seven'], 'png')],
  ];
  const ids: string[] = [];
  for (const [name, content] of files) {
    const answer = await call(`/api/admin/collections/${collection.body.collection_id}/documents`, { method: 'POST', raw: multipart([{ name: 'file', filename: name, content }]) });
    t.equal(answer.status, 202, `${name} accepted`);
    ids.push(answer.body.document_id);
  }
  for (const id of ids) {
    const status = await until(async () => {
      const answer = await call(`/api/admin/documents/${id}/ingestion-status`);
      return ['ready', 'error'].includes(answer.body.ingestion_status) ? answer.body : undefined;
    }, `document ${id} done`, 180_000);
    t.equal(status.ingestion_status, 'ready', `${id} ready (${status.error ?? ''})`);
    t.ok(status.chunk_count >= 1);
  }

  const found = await call(`/api/admin/search?query=${encodeURIComponent('mechanical seal')}`);
  t.equal(found.status, 200);
  t.equal(found.body.mode, 'keyword');
  t.equal(found.body.results[0].document_id, ids[0]);
  const fuzzy = await call(`/api/admin/search?query=${encodeURIComponent('lubricaton grease')}`);
  t.equal(fuzzy.body.results[0].document_id, ids[1], 'a typo still finds its word (pg_trgm on PGlite)');
  t.equal(fuzzy.body.results[0].section, 'Valves > Lubrication');
  const ocr = await call(`/api/admin/search?query=${encodeURIComponent('hydraulic valve')}`);
  t.ok(ocr.body.results.some((hit: { document_id: string }) => hit.document_id === ids[2]), 'the image was read by OCR offline');
  const fn = await call('/api/admin/functions/search_documents/call', { method: 'POST', body: { arguments: { query: 'gate valves' } } });
  t.equal(fn.status, 200);
  t.match(JSON.stringify(fn.body), /"chunk_id"/);

  t.notMatch(output(), /NETWORK-ATTEMPT/, 'nothing tried to leave loopback');
});

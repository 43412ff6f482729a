// The csv pattern: a CSV file (quoted fields with delimiters, doubled quotes
// and line breaks; CRLF) and a JSON Lines file from a URL, typed by
// inference, landed in the lake; a broken file fails the stream clearly.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { sourcesPlatform } from './helpers.ts';

const CSV = 'id,name,price,active,day\r\n1,plain,1.50,true,2024-01-01\r\n2,"with, comma",2,false,2024-01-02\r\n3,"say ""hi""\nsecond line",,true,\r\n';
const JSONL = '{"id": 1, "tags": ["a"], "at": "2024-01-01T10:00:00Z"}\n{"id": 2, "tags": [], "at": "2024-01-02T10:00:00Z"}\n';

t.test('csv and JSON Lines files land typed; a broken file fails clearly', async (t) => {
  const server = createServer((request, response) => {
    if (request.url === '/data.csv') response.writeHead(200, { 'content-type': 'text/csv' }).end(CSV);
    else if (request.url === '/data.jsonl') response.writeHead(200).end(JSONL);
    else if (request.url === '/broken.jsonl') response.writeHead(200).end('{"id": 1}\nnot json\n');
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { asAcme } = await sourcesPlatform(t, { PIPELINES_SYNC_RETRY_LIMIT: '0' }, { workers: true });

  const syncFile = async (name: string, config: object) => {
    const sourceId = (await asAcme('POST', '/api/v1/sources', { name, pattern_id: 'csv', source_config: config })).body.id;
    const discovery = (await asAcme('POST', '/api/v1/sources/discover', { source_id: sourceId, apply: true })).body;
    const found = await until(async () => {
      const status = (await asAcme('GET', `/api/v1/sources/discover/status/${discovery.workflow_id}`)).body;
      return status.status === 'queued' || status.status === 'running' ? undefined : status;
    }, 'discovery', 60_000);
    await asAcme('POST', `/api/v1/sources/${sourceId}/sync`);
    const run = await until(async () => {
      const status = (await asAcme('GET', `/api/v1/sources/${sourceId}/sync/status`)).body;
      return status.run?.is_terminal ? status.run : undefined;
    }, 'the sync', 60_000);
    return { found, run };
  };

  const csv = await syncFile('sheet', { url: `${base}/data.csv`, stream_name: 'prices' });
  t.match(csv.found.streams[0].schema.properties, {
    id: { type: ['null', 'integer'] }, name: { type: ['null', 'string'] }, price: { type: ['null', 'number'] }, active: { type: ['null', 'boolean'] }, day: { format: 'date' },
  });
  t.equal(csv.run.status, 'succeeded', csv.run.error ?? '');
  const rows = (await asAcme('GET', '/api/v1/datasets/raw.acme.sheet_prices/preview')).body.rows.sort((a: { id: number }, b: { id: number }) => a.id - b.id);
  t.same(rows.map((r: Record<string, unknown>) => [r.id, r.name, r.price, r.active, r.day]), [
    [1, 'plain', 1.5, true, '2024-01-01'], [2, 'with, comma', 2, false, '2024-01-02'], [3, 'say "hi"\nsecond line', null, true, null],
  ]);

  const jsonl = await syncFile('events', { url: `${base}/data.jsonl`, format: 'jsonl' });
  t.equal(jsonl.run.status, 'succeeded', jsonl.run.error ?? '');
  const lines = (await asAcme('GET', '/api/v1/datasets/raw.acme.events_rows/preview')).body.rows.sort((a: { id: number }, b: { id: number }) => a.id - b.id);
  t.same(lines.map((r: Record<string, unknown>) => [r.id, r.tags, r.at]), [[1, ['a'], '2024-01-01T10:00:00.000Z'], [2, [], '2024-01-02T10:00:00.000Z']]);

  const brokenId = (await asAcme('POST', '/api/v1/sources', { name: 'broken', pattern_id: 'csv', source_config: { url: `${base}/broken.jsonl`, format: 'jsonl' } })).body.id;
  const brokenDiscovery = (await asAcme('POST', '/api/v1/sources/discover', { source_id: brokenId, apply: true })).body;
  const broken = await until(async () => {
    const status = (await asAcme('GET', `/api/v1/sources/discover/status/${brokenDiscovery.workflow_id}`)).body;
    return status.status === 'queued' || status.status === 'running' ? undefined : status;
  }, 'discovery', 60_000);
  t.equal(broken.status, 'failed');
  t.match(broken.error, /not JSON/);
  t.equal((await asAcme('POST', `/api/v1/sources/${brokenId}/sync`)).body.code, 'NO_ENABLED_STREAMS', 'a failed discovery made no stream to sync');
  const missing = await asAcme('POST', '/api/v1/sources', { name: 'bad', pattern_id: 'csv', source_config: { url: 'ftp://x/y.csv' } });
  t.equal(missing.body.code, 'SOURCE_CONFIG_INVALID');
});

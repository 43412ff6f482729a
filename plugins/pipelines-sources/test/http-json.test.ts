// The http_json pattern against a local JSON API: page pagination, records at
// a path, inferred schema, the write-only API key (sent, never shown or
// logged), incremental reads past the cursor, and an upstream error per stream.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { sourcesPlatform } from './helpers.ts';

const KEY = 'Bearer api-key-that-must-stay-secret';

function items(updatedDay: (id: number) => number) {
  return Array.from({ length: 5 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}`, updated_at: `2024-01-0${updatedDay(i + 1)}T00:00:00Z`, meta: { n: i } }));
}

t.test('http_json: discover, full refresh over pages, incremental past the cursor, errors without secrets', async (t) => {
  let data = items((id) => id);
  const seenKeys: (string | undefined)[] = [];
  let failing = false;
  const server = createServer((request, response) => {
    seenKeys.push(request.headers.authorization);
    const url = new URL(request.url!, 'http://x');
    if (failing) {
      response.writeHead(500).end(`{"error": "down", "echo": "${KEY}"}`);
      return;
    }
    const page = Number(url.searchParams.get('page') ?? 1);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { rows: data.slice((page - 1) * 2, page * 2) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/items`;

  const { tp, asAcme } = await sourcesPlatform(t, {}, { captureLogs: true, workers: true });
  const created = await asAcme('POST', '/api/v1/sources', {
    name: 'api', pattern_id: 'http_json', credential_values: { api_key: KEY }, credential_name: 'api key',
    source_config: { url, stream_name: 'items', records_path: 'data.rows', pagination: { type: 'page', param: 'page', start: 1 } },
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  t.same(created.body.source_config, { url, stream_name: 'items', records_path: 'data.rows', pagination: { type: 'page', param: 'page', start: 1 } }, 'as given (defaults apply when used); no api_key');
  const sourceId = created.body.id;

  const discovery = (await asAcme('POST', '/api/v1/sources/discover', { source_id: sourceId, apply: true })).body;
  const found = await until(async () => {
    const status = (await asAcme('GET', `/api/v1/sources/discover/status/${discovery.workflow_id}`)).body;
    return status.status === 'queued' || status.status === 'running' ? undefined : status;
  }, 'discovery', 60_000);
  t.equal(found.status, 'succeeded', found.error ?? '');
  t.match(found.streams, [{ name: 'items', namespace: null, schema: { properties: {
    id: { type: ['null', 'integer'] }, name: { type: ['null', 'string'] }, updated_at: { format: 'date-time' }, meta: { type: ['null', 'object', 'array'] },
  } } }]);
  const stream = (await asAcme('GET', `/api/v1/sources/${sourceId}/streams`)).body.items[0];
  t.equal(stream.destination, 'raw.acme.api_items');
  await asAcme('PATCH', `/api/v1/sources/${sourceId}/streams/${stream.id}`, { primary_key: ['id'] });

  const sync = async () => {
    const started = (await asAcme('POST', `/api/v1/sources/${sourceId}/sync`)).body;
    return until(async () => {
      const status = (await asAcme('GET', `/api/v1/sources/${sourceId}/sync/status`)).body;
      return status.run?.id === started.id && status.run.is_terminal ? status.run : undefined;
    }, 'the sync', 60_000);
  };
  const first = await sync();
  t.match(first, { status: 'succeeded', rows_read: 5, rows_added: 5 }, 'three pages, the fourth empty');
  const rows = (await asAcme('GET', '/api/v1/datasets/raw.acme.api_items/preview')).body.rows;
  t.same(rows.map((r: { id: number; name: string }) => [r.id, r.name]).sort(), [[1, 'item 1'], [2, 'item 2'], [3, 'item 3'], [4, 'item 4'], [5, 'item 5']]);
  t.same(rows.find((r: { id: number }) => r.id === 2).meta, { n: 1 });
  t.ok(seenKeys.length > 0 && seenKeys.every((key) => key === KEY), 'the API key went in the header of every call');

  await asAcme('PATCH', `/api/v1/sources/${sourceId}/streams/${stream.id}`, { sync_mode: 'incremental', cursor_field: 'updated_at', write_mode: 'append_dedup' });
  await sync(); // sets the cursor
  data = items((id) => (id === 3 ? 9 : id));
  data[2]!.name = 'item 3 changed';
  const incremental = await sync();
  const runStream = (await asAcme('GET', `/api/v1/sources/sync-runs/${incremental.id}/streams`)).body.items[0];
  t.match(runStream, { rows_read: 2, rows_added: 1 }, 'the boundary row and the changed one; one new version');
  t.equal((await asAcme('GET', '/api/v1/datasets/raw.acme.api_items/preview')).body.rows.find((r: { id: number }) => r.id === 3).name, 'item 3 changed');

  failing = true;
  const failed = await sync();
  t.equal(failed.status, 'failed');
  t.match(failed.streams[0].error, /answered 500/);
  const everything = JSON.stringify(failed) + JSON.stringify((await asAcme('GET', `/api/v1/sources/${sourceId}/runs/${failed.id}/logs`)).body);
  t.notOk(everything.includes('api-key-that-must-stay-secret'), 'no credential in the run');
  t.notOk(tp.logs.some((line) => line.includes('api-key-that-must-stay-secret')), 'nor in the logs');
});

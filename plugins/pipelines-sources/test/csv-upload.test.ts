// The csv pattern from an uploaded file: the upload is stored in the tenant's
// table, a source names it by file_id and its sync lands like a URL's; a
// binary body, an unknown type or a file past PIPELINES_MAX_UPLOAD_BYTES is a
// clear 4xx that stores nothing; another tenant's file is not found; members
// cannot upload.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { sourcesPlatform, stored, userToken } from './helpers.ts';

const CSV = 'id,name,price\r\n1,plain,1.50\r\n2,"with, comma",2\r\n';
const JSONL = '{"id": 1, "tags": ["a"]}\n{"id": 2, "tags": []}\n';

t.test('an uploaded CSV or JSON Lines file syncs like a URL; uploads are checked, tenant-owned and for editors', async (t) => {
  const { tp, acme, asAcme, asBeta } = await sourcesPlatform(t, { PIPELINES_SYNC_RETRY_LIMIT: '0', PIPELINES_MAX_UPLOAD_BYTES: '1000' }, { workers: true });
  const upload = (who: { token: string; alias: string }, body: string | Buffer, contentType: string, name = 'prices.csv') =>
    tp.request({ method: 'POST', url: `/api/v1/sources/files?name=${name}`, token: who.token, tenant: who.alias, payload: body, headers: { 'content-type': contentType } });

  const sheet = await upload(acme, CSV, 'text/csv');
  t.equal(sheet.status, 201, JSON.stringify(sheet.body));
  t.match(sheet.body, { name: 'prices.csv', content_type: 'text/csv', size_bytes: Buffer.byteLength(CSV), created_by: 'acme-admin' });
  t.equal((await asAcme('GET', `/api/v1/sources/files/${sheet.body.id}`)).body.size_bytes, Buffer.byteLength(CSV));

  // Refused, and nothing stored.
  const tooLarge = await upload(acme, 'x,y\n'.repeat(300), 'text/csv');
  t.equal(tooLarge.status, 413);
  t.equal(tooLarge.body.code, 'SOURCE_FILE_TOO_LARGE');
  const wrongType = await upload(acme, '{}', 'application/pdf');
  t.equal(wrongType.status, 415);
  t.equal(wrongType.body.code, 'SOURCE_FILE_TYPE_UNSUPPORTED');
  const binary = await upload(acme, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff]), 'text/csv');
  t.equal(binary.status, 415);
  t.equal(binary.body.code, 'SOURCE_FILE_TYPE_UNSUPPORTED');
  t.equal((await stored(tp, 'SELECT count(*)::int AS n FROM pipeline_source_files'))[0].n, 1, 'only the good file is stored');

  // Roles: a member reads metadata but cannot upload; a pipeline_editor can.
  const reader = await userToken(tp, 'reader', ['acme']);
  const editor = await userToken(tp, 'editor', ['acme'], ['pipeline_editor']);
  t.equal((await upload({ token: reader, alias: 'acme' }, CSV, 'text/csv')).status, 403);
  t.equal((await upload({ token: editor, alias: 'acme' }, JSONL, 'application/x-ndjson', 'events.jsonl')).status, 201);

  // Another tenant's file: not found, by id or through a source's configuration.
  t.equal((await asBeta('GET', `/api/v1/sources/files/${sheet.body.id}`)).status, 404);
  const foreign = await asBeta('POST', '/api/v1/sources', { name: 'stolen', pattern_id: 'csv', source_config: { file_id: sheet.body.id } });
  t.equal(foreign.status, 404);
  t.equal(foreign.body.code, 'SOURCE_FILE_NOT_FOUND');
  t.equal((await asBeta('DELETE', `/api/v1/sources/files/${sheet.body.id}`)).status, 404);
  const both = await asAcme('POST', '/api/v1/sources', { name: 'both', pattern_id: 'csv', source_config: { file_id: sheet.body.id, url: 'https://example.com/a.csv' } });
  t.equal(both.body.code, 'SOURCE_CONFIG_INVALID', 'a url or a file, not both');

  const syncFile = async (name: string, config: object) => {
    const created = await asAcme('POST', '/api/v1/sources', { name, pattern_id: 'csv', source_config: config });
    t.equal(created.status, 201, JSON.stringify(created.body));
    const discovery = (await asAcme('POST', '/api/v1/sources/discover', { source_id: created.body.id, apply: true })).body;
    const found = await until(async () => {
      const status = (await asAcme('GET', `/api/v1/sources/discover/status/${discovery.workflow_id}`)).body;
      return status.status === 'queued' || status.status === 'running' ? undefined : status;
    }, 'discovery', 60_000);
    await asAcme('POST', `/api/v1/sources/${created.body.id}/sync`);
    const run = await until(async () => {
      const status = (await asAcme('GET', `/api/v1/sources/${created.body.id}/sync/status`)).body;
      return status.run?.is_terminal ? status.run : undefined;
    }, 'the sync', 60_000);
    return { id: created.body.id, found, run };
  };

  const csv = await syncFile('sheet', { file_id: sheet.body.id, stream_name: 'prices' });
  t.match(csv.found.streams[0].schema.properties, { id: { type: ['null', 'integer'] }, price: { type: ['null', 'number'] } });
  t.equal(csv.run.status, 'succeeded', csv.run.error ?? '');
  const rows = (await asAcme('GET', '/api/v1/datasets/raw.acme.sheet_prices/preview')).body.rows.sort((a: { id: number }, b: { id: number }) => a.id - b.id);
  t.same(rows.map((r: Record<string, unknown>) => [r.id, r.name, r.price]), [[1, 'plain', 1.5], [2, 'with, comma', 2]]);

  const events = (await asAcme('GET', '/api/v1/sources/files/' + (await stored(tp, "SELECT id FROM pipeline_source_files WHERE name = 'events.jsonl'"))[0].id)).body;
  const jsonl = await syncFile('events', { file_id: events.id, format: 'jsonl' });
  t.equal(jsonl.run.status, 'succeeded', jsonl.run.error ?? '');
  const lines = (await asAcme('GET', '/api/v1/datasets/raw.acme.events_rows/preview')).body.rows.sort((a: { id: number }, b: { id: number }) => a.id - b.id);
  t.same(lines.map((r: Record<string, unknown>) => [r.id, r.tags]), [[1, ['a']], [2, []]]);

  // A deleted file fails the next sync clearly.
  t.equal((await asAcme('DELETE', `/api/v1/sources/files/${sheet.body.id}`)).status, 204);
  await asAcme('POST', `/api/v1/sources/${csv.id}/sync`);
  const failed = await until(async () => {
    const status = (await asAcme('GET', `/api/v1/sources/${csv.id}/sync/status`)).body;
    return status.run?.is_terminal && status.run.id !== csv.run.id ? status.run : undefined;
  }, 'the failed sync', 60_000);
  t.equal(failed.status, 'failed');
  t.match(JSON.stringify(failed), /No uploaded file/);
});

// The lake on the embedded default (no DATABASE_URL: PGlite in-process, one
// backend session for every connection): a first load goes straight into the
// table (its owner functions, RLS off for the transaction, COPY) and a later
// sync through the stage, both through `platform serve` as `npm start` runs it
// (on a copy of the migrated template: the first start of a fresh install is
// test/core/embedded.test.ts's).
// Runs in its own process: the embedded database (PGlite) runs in this process.
import t from 'tap';
import { serveFresh } from '../../../test/embedded-serve.ts';
import { until } from 'agent-platform/sdk/testing';

t.test('embedded default: a CSV source syncs into the lake, first load and the next', async (t) => {
  const served = await serveFresh(t, { from: 'migrated-template' });
  const request = async (method: string, url: string, options: { token?: string; body?: unknown; text?: string; type?: string } = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? served.token}` };
    if (url.startsWith('/api/v1/')) headers['x-tenant-id'] = 'acme';
    if (options.body !== undefined || options.text !== undefined) headers['content-type'] = options.type ?? 'application/json';
    const res = await fetch(`${served.base}${url}`, { method, headers, body: options.text ?? (options.body === undefined ? undefined : JSON.stringify(options.body)) });
    return { status: res.status, body: (await res.json()) as any };
  };
  t.equal((await request('POST', '/api/admin/tenants', { body: { id: 'acme' } })).status, 201);
  t.equal((await request('POST', '/api/admin/users', { body: { sub: 'ann', display_name: 'Ann', organizations: ['acme'], roles: ['admin'] } })).status, 201);
  const token = (await request('POST', '/api/admin/users/ann/tokens')).body.access_token as string;
  const as = (method: string, url: string, options: { body?: unknown; text?: string; type?: string } = {}) => request(method, url, { ...options, token });

  const syncFile = async (csv: string) => {
    const file = await as('POST', '/api/v1/sources/files?name=prices.csv', { text: csv, type: 'text/csv' });
    t.equal(file.status, 201, JSON.stringify(file.body));
    return file.body.id as string;
  };
  const file = await syncFile('id,name,price\r\n1,plain,1.50\r\n2,"with, comma",2\r\n');
  const source = await as('POST', '/api/v1/sources', { body: { name: 'prices', pattern_id: 'csv', source_config: { file_id: file } } });
  t.equal(source.status, 201, JSON.stringify(source.body));
  const discovery = (await as('POST', '/api/v1/sources/discover', { body: { source_id: source.body.id, apply: true } })).body;
  await until(async () => (await as('GET', `/api/v1/sources/discover/status/${discovery.workflow_id}`)).body.status === 'succeeded', 'discovery', 60_000);
  const sync = async () => {
    t.equal((await as('POST', `/api/v1/sources/${source.body.id}/sync`)).status, 202);
    return until(async () => {
      const status = (await as('GET', `/api/v1/sources/${source.body.id}/sync/status`)).body;
      return status.run?.is_terminal ? status.run : undefined;
    }, 'the sync', 60_000);
  };
  const [stream] = (await as('GET', `/api/v1/sources/${source.body.id}/streams`)).body.items as { destination: string }[];
  const rows = async () => ((await as('GET', `/api/v1/datasets/${stream!.destination}/preview`)).body.rows as { name: string }[]).map((row) => row.name).sort();

  const first = await sync();
  t.equal(first.status, 'succeeded', first.error ?? '');
  t.match(first, { rows_read: 2, rows_added: 2 });
  t.same(await rows(), ['plain', 'with, comma']);

  const second = await sync();
  t.equal(second.status, 'succeeded', second.error ?? '');
  t.match(second, { rows_read: 2, rows_added: 0 }, 'the same rows again: through the stage, nothing new');
  t.same(await rows(), ['plain', 'with, comma']);
});

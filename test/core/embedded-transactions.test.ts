// The embedded default (PGlite: one backend session for every connection)
// through flows that once took a second connection inside a transaction and
// hung there (core/db/connection-guard.ts): an embed configuration saved, a
// transform created, changed and materialized (twice: the first load and a
// re-materialization), a pipeline run in the sandbox, activated and run. Each
// request gets its answer; none waits on itself. The server starts on a copy
// of the migrated template: the first start of a fresh install is
// test/core/embedded.test.ts's.
// Runs in its own process: the embedded database (PGlite) runs in this process.
import t from 'tap';
import { serveFresh } from '../embedded-serve.ts';
import { until } from '../harness.ts';

t.test('embedded default: embed configuration, transforms and pipelines answer', async (t) => {
  const served = await serveFresh(t, { from: 'migrated-template' });
  const request = async (method: string, url: string, options: { token?: string; body?: unknown; text?: string; type?: string; origin?: string } = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? served.token}` };
    if (url.startsWith('/api/v1/')) headers['x-tenant-id'] = 'acme';
    if (options.origin) headers.origin = options.origin;
    if (options.body !== undefined || options.text !== undefined) headers['content-type'] = options.type ?? 'application/json';
    const res = await fetch(`${served.base}${url}`, {
      method, headers, body: options.text ?? (options.body === undefined ? undefined : JSON.stringify(options.body)), signal: AbortSignal.timeout(60_000),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  t.equal((await request('POST', '/api/admin/tenants', { body: { id: 'acme' } })).status, 201);
  t.equal((await request('POST', '/api/admin/users', { body: { sub: 'ann', display_name: 'Ann', organizations: ['acme'], roles: ['admin'] } })).status, 201);
  const token = (await request('POST', '/api/admin/users/ann/tokens')).body.access_token as string;
  const as = (method: string, url: string, options: { body?: unknown; text?: string; type?: string } = {}) => request(method, url, { ...options, token });

  t.test('an embed configuration is saved and its manifest served', async (t) => {
    const [client] = (await as('GET', '/api/admin/clients')).body.items as { id: number; client_key: string }[];
    const saved = await as('PUT', `/api/admin/clients/${client!.id}/embed`, { body: { enabled: true, allowed_origins: ['https://city.example'] } });
    t.equal(saved.status, 200, JSON.stringify(saved.body));
    const manifest = await request('GET', `/api/embed/manifest/${client!.client_key}`, { origin: 'https://city.example' });
    t.equal(manifest.status, 200, JSON.stringify(manifest.body));
  });

  // An input dataset: a CSV file synced into the lake.
  const file = (await as('POST', '/api/v1/sources/files?name=prices.csv', { text: 'id,name,price\n1,apple,3\n2,pear,4\n3,fig,9\n', type: 'text/csv' })).body.id;
  const source = (await as('POST', '/api/v1/sources', { body: { name: 'prices', pattern_id: 'csv', source_config: { file_id: file } } })).body;
  const discovery = (await as('POST', '/api/v1/sources/discover', { body: { source_id: source.id, apply: true } })).body;
  await until(async () => (await as('GET', `/api/v1/sources/discover/status/${discovery.workflow_id}`)).body.status === 'succeeded', 'discovery', 60_000);
  t.equal((await as('POST', `/api/v1/sources/${source.id}/sync`)).status, 202);
  const synced = await until(async () => {
    const status = (await as('GET', `/api/v1/sources/${source.id}/sync/status`)).body;
    return status.run?.is_terminal ? status.run : undefined;
  }, 'the sync', 60_000);
  t.equal(synced.status, 'succeeded', synced.error ?? '');
  const input = ((await as('GET', `/api/v1/sources/${source.id}/streams`)).body.items as { destination: string }[])[0]!.destination;

  t.test('a transform is created, changed and materialized twice', async (t) => {
    const created = await as('POST', '/api/v1/transforms', { body: { name: 'dear', sql: `SELECT name, price * 2 AS doubled FROM ${input} WHERE price > 3` } });
    t.equal(created.status, 201, JSON.stringify(created.body));
    const patched = await as('PATCH', `/api/v1/transforms/${created.body.id}`, { body: { sql: `SELECT name, price * 3 AS tripled FROM ${input} WHERE price > 3` } });
    t.equal(patched.status, 200, JSON.stringify(patched.body));
    for (const round of ['first load', 'again']) {
      const run = await as('POST', `/api/v1/transforms/${created.body.id}/materialize`, { body: {} });
      t.equal(run.body.status, 'succeeded', `${round}: ${JSON.stringify(run.body.error)}`);
    }
    const rows = (await as('GET', '/api/v1/datasets/derived.acme.dear/preview')).body.rows as { name: string; tripled: number }[];
    t.same(rows.map((row) => [row.name, Number(row.tripled)]).sort(), [['fig', 27], ['pear', 12]]);
  });

  t.test('a pipeline runs in the sandbox, is activated and runs', async (t) => {
    const steps = [
      { id: 'clean', sql: `SELECT id, name, price FROM ${input} WHERE price > 3`, output: 'p_clean', inputs: [input] },
      { id: 'sum', sql: 'SELECT sum(price) AS total FROM derived.acme.p_clean', output: 'p_sum', inputs: ['clean'] },
    ];
    const pipeline = await as('POST', '/api/v1/pipelines', { body: { name: 'flow', steps } });
    t.equal(pipeline.status, 201, JSON.stringify(pipeline.body));
    const sandbox = await as('POST', `/api/v1/pipelines/${pipeline.body.id}/sandbox`, { body: {} });
    t.equal(sandbox.status, 202, JSON.stringify(sandbox.body));
    const ended = await until(async () => {
      const status = (await as('GET', `/api/v1/pipelines/${pipeline.body.id}/sandbox/${sandbox.body.workflow_id}/status`)).body;
      return ['succeeded', 'failed', 'cancelled'].includes(status.status) ? status : undefined;
    }, 'the sandbox run', 60_000);
    t.equal(ended.status, 'succeeded', JSON.stringify(ended.steps));
    t.equal((await as('POST', `/api/v1/pipelines/${pipeline.body.id}/activate`, { body: {} })).status, 200);
    t.equal((await as('POST', '/api/v1/temporal/workflows/pipeline', { body: { pipeline_id: pipeline.body.id } })).status, 202);
    await until(async () => {
      const runs = (await as('GET', `/api/v1/pipelines/${pipeline.body.id}/runs`)).body.items as { kind: string; status: string }[];
      return runs.some((run) => run.kind === 'production' && run.status === 'succeeded');
    }, 'the production run', 60_000);
    t.same((await as('GET', '/api/v1/datasets/derived.acme.p_sum/preview')).body.rows.map((row: { total: unknown }) => Number(row.total)), [13]);
  });
});

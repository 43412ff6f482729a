// The postgres pattern reads a stream as binary COPY when every column's
// upstream type converts to its lake type exactly as its text does, and as
// text otherwise. Either way the lake holds the same values: one table of
// binary-safe types and its twin with one column (real) that forces text are
// synced through the API, and every shared column reads back equal and as
// written upstream (extremes, NULLs, zones, escapes, JSON).
import t from 'tap';
import { postgresPattern } from '../patterns/postgres.ts';
import { until } from 'agent-platform/sdk/testing';
import { sourcesPlatform, upstreamDatabase } from './helpers.ts';

const COLUMNS = `id integer PRIMARY KEY, i2 smallint, i4 integer, i8 bigint, n numeric, d double precision, b boolean, tx text,
  vc varchar(40), tz timestamptz, ts timestamp, dt date, u uuid, js json, jb jsonb`;
const ROWS = `
  (1, 1, 2, 9007199254740993, 12345678901234567890.123456789, 1.5, true, E'tab\\there "q" \\\\ back', 'vç', '2024-02-29T23:59:59.123456+05:30',
   '2024-02-29 23:59:59.654321', '2024-02-29', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"b": [1, 2.50, null], "a": "x"}', '{"z": {"y": 1}}'),
  (2, -32768, -2147483648, -9223372036854775808, -0.000001, -1e-300, false, E'línea\\nnueva', '', '1970-01-01T00:00:00Z',
   '1999-12-31 23:59:59', '2000-01-01', '00000000-0000-0000-0000-000000000000', '[]', '"s"'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`;

type Request = (method: string, url: string, payload?: unknown) => Promise<{ status: number; body: any }>;

async function rowsOf(request: Request, dataset: string) {
  const preview = await request('GET', `/api/v1/datasets/${dataset}/preview`);
  return (preview.body.rows as Record<string, unknown>[])
    .map(({ r: _real, ...shared }) => shared)
    .sort((a, b) => Number(a.id) - Number(b.id));
}

t.test('binary-safe tables are read as binary COPY, others as text, and both land the same values', async (t) => {
  const { asAcme } = await sourcesPlatform(t, {}, { workers: true });
  const upstream = await upstreamDatabase(t);
  await upstream.client.query(`CREATE TABLE typed (${COLUMNS}); CREATE TABLE mixed (${COLUMNS}, r real);
    INSERT INTO typed VALUES ${ROWS}; INSERT INTO mixed SELECT typed.*, 0.1 FROM typed`);

  const source = await asAcme('POST', '/api/v1/sources', { name: 'up', pattern_id: 'postgres', source_config: upstream.config });
  t.equal(source.status, 201);
  const discovery = await asAcme('POST', '/api/v1/sources/discover', { source_id: source.body.id, apply: true });
  await until(async () => (await asAcme('GET', `/api/v1/sources/discover/status/${discovery.body.workflow_id}`)).body.status === 'succeeded', 'discovery', 60_000);
  const streams = (await asAcme('GET', `/api/v1/sources/${source.body.id}/streams`)).body.items as { name: string; schema: { properties: Record<string, unknown> } }[];

  // The pattern's choice, asked directly with the stream's columns as the sync gives them.
  const columnsOf = (name: string) => {
    const stream = streams.find((s) => s.name === name)!;
    const types: Record<string, string> = { integer: 'bigint', number: 'double', boolean: 'boolean', object: 'jsonb' };
    return Object.entries(stream.schema.properties).map(([column, schema]) => {
      const { type, format } = schema as { type: string[]; format?: string };
      const json = type.find((x) => x !== 'null')!;
      const lake = format === 'decimal' ? 'numeric' : format === 'date-time' ? 'timestamptz' : format === 'date' ? 'date' : format === 'uuid' ? 'uuid' : (types[json] ?? 'text');
      return { name: column, type: lake as never };
    });
  };
  const formatOf = async (name: string) => {
    const context = { tenantId: 'acme', config: upstream.config, allowPrivateNetworks: true, fetch, readFile: async () => undefined, callFunction: async () => undefined, signal: new AbortController().signal };
    const reader = await postgresPattern.read(context, {
      name, namespace: 'public', columns: columnsOf(name), syncMode: 'full_refresh', cursorField: null, primaryKey: ['id'], cursor: null, inclusiveCursor: false,
    });
    try {
      return reader.source.kind === 'copy' ? (reader.source.format ?? 'text') : reader.source.kind;
    } finally {
      // Read to its end: a connection closed in the middle of a COPY fails noisily.
      if (reader.source.kind === 'copy') for await (const _chunk of reader.source.stream);
      await reader.close();
    }
  };
  t.equal(await formatOf('typed'), 'binary', 'every column binary-safe: binary COPY');
  t.equal(await formatOf('mixed'), 'text', 'one real column (its text is not its widened binary): text');

  t.equal((await asAcme('POST', `/api/v1/sources/${source.body.id}/sync`)).status, 202);
  const run = await until(async () => {
    const status = (await asAcme('GET', `/api/v1/sources/${source.body.id}/sync/status`)).body;
    return status.run?.is_terminal ? status.run : undefined;
  }, 'the sync', 60_000);
  t.equal(run.status, 'succeeded', run.error ?? '');

  const binary = await rowsOf(asAcme, 'raw.acme.up_typed');
  const text = await rowsOf(asAcme, 'raw.acme.up_mixed');
  t.same(binary, text, 'the same values either way');
  t.match(binary[0], {
    id: 1, i2: 1, i4: 2, i8: '9007199254740993', n: '12345678901234567890.123456789', d: 1.5, b: true, tx: 'tab\there "q" \\ back', vc: 'vç',
    tz: '2024-02-29T18:29:59.123Z', ts: '2024-02-29T23:59:59.654Z', dt: '2024-02-29', u: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    js: { a: 'x', b: [1, 2.5, null] }, jb: { z: { y: 1 } },
  });
  t.match(binary[1], {
    i2: -32768, i4: -2147483648, i8: '-9223372036854775808', n: '-0.000001', d: -1e-300, b: false, tx: 'línea\nnueva', vc: '',
    tz: '1970-01-01T00:00:00.000Z', ts: '1999-12-31T23:59:59.000Z', dt: '2000-01-01', u: '00000000-0000-0000-0000-000000000000', js: [], jb: 's',
  });
  t.same(Object.entries(binary[2]!).filter(([key]) => key !== 'id').map(([, value]) => value), Array(14).fill(null), 'NULLs stay NULL');
});

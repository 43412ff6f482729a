// GraphQL limits: a document past GRAPHQL_MAX_TOKENS, an
// operation deeper than GRAPHQL_MAX_DEPTH, with more aliases than
// GRAPHQL_MAX_ALIASES or costing more than GRAPHQL_MAX_COST is a 400 that
// names the limit, before any resolver runs (no tenant transaction is opened:
// the statements sent are watched); normal queries and the standard introspection
// query pass; the settings move the limits.
import t from 'tap';
import { getIntrospectionQuery } from 'graphql';
import pg from 'pg';
import { startTestPlatform, tenantWithAdmin, type Tap } from '../harness.ts';

const MANIFEST = 'test/fixtures/manifests/citations.yaml';

async function platform(t: Tap, env: Record<string, string> = {}) {
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: MANIFEST, ...env } });
  const admin = await tenantWithAdmin(tp, 'acme');
  // Counts tenant transactions: withTenant opens each with `SET LOCAL
  // app.tenant_id = '<tenant>'` (the services hold their own withTenant, so
  // the statement on the wire is the one place to watch).
  const opened = { count: 0 };
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
    if (text?.includes("app.tenant_id = 'acme'")) opened.count += 1;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  t.teardown(() => {
    pg.Client.prototype.query = original;
  });
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await tp.request({ method: 'POST', url: '/graphql', token: admin.token, payload: { query, variables } });
    return response as { status: number; body: { data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] } };
  };
  return { tp, admin, opened, gql };
}

const aliased = (count: number, field: string) => `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(' ')} }`;
const codes = (body: { errors?: { extensions?: Record<string, unknown> }[] }) => (body.errors ?? []).map((e) => e.extensions?.code);

// Depth 14 (introspection's `type` and `fields` count; only `ofType` is free).
const DEEP = '{ __schema { types { fields { type { fields { type { fields { type { fields { type { fields { type { fields { name } } } } } } } } } } } } } }';
// Depth 7: collections > edges > node > documents > edges > node > id.
const NESTED = '{ collections(first: 5) { edges { node { name documents(first: 5) { edges { node { id name } } } } } } }';
const EXPENSIVE = `{ collections(first: 100) { edges { node { documents(first: 100) { edges { node {
  chunks(first: 100) { edges { node { text } } } } } } } } } }`;

t.test('normal queries and the standard introspection query pass', async (t) => {
  const { gql, opened } = await platform(t);
  const nested = await gql(NESTED);
  t.equal(nested.status, 200);
  t.notOk(nested.body.errors, 'a two-level connection query runs');
  t.same(nested.body.data.collections.edges, []);

  const introspection = await gql(getIntrospectionQuery({
    descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true,
  }));
  t.equal(introspection.status, 200);
  t.notOk(introspection.body.errors, 'the standard introspection query (every option) passes');
  t.ok(introspection.body.data.__schema.types.some((type: { name: string }) => type.name === 'Citation'));

  const before = opened.count;
  const search = await gql('{ search(query: "anything", topK: 5) { chunkId text } }');
  t.notOk(search.body.errors);
  t.same(search.body.data.search, []);
  t.ok(opened.count > before, 'a search that runs opens a tenant transaction (so the counter can see one)');

  const thirty = await gql(aliased(30, 'viewer { kind }'));
  t.notOk(thirty.body.errors, '30 aliases are allowed');
  t.equal(thirty.body.data.a29.kind, 'user');
  const withVariableDefault = await gql(`query($n: Int = 5) { collections(first: $n) { edges { node { documents(first: $n) {
    edges { node { chunks(first: $n) { edges { node { text } } } } } } } } } }`);
  t.notOk(withVariableDefault.body.errors, 'a variable with a small default counts its default');
});

t.test('an alias bomb is a 400 before any resolver runs', async (t) => {
  const { gql, opened } = await platform(t);
  const before = opened.count;
  const bomb = await gql(aliased(1000, 'search(query: "x") { text }'));
  t.equal(bomb.status, 400);
  t.notOk(bomb.body.data, 'no data: nothing ran');
  t.same(codes(bomb.body), ['QUERY_TOO_LARGE'], 'a thousand aliases make the document too large first');
  t.match(bomb.body.errors![0].message, /more than 2000 tokens/);
  t.notOk(bomb.body.errors![0].extensions?.http, 'yoga\'s transport extension is not shown');

  const thirtyOne = await gql(aliased(31, 'search(query: "x") { text }'));
  t.equal(thirtyOne.status, 400);
  t.same(codes(thirtyOne.body), ['TOO_MANY_ALIASES']);
  t.match(thirtyOne.body.errors![0], { message: 'The operation has 31 aliases; the limit is 30', extensions: { limit: 30 } });

  const viewers = await gql(aliased(31, 'viewer { kind }'));
  t.equal(viewers.status, 400, 'whatever the field');
  t.equal(opened.count, before, 'no search ran: no tenant transaction was opened');
});

t.test('with a larger token allowance the alias limit refuses the thousand aliases itself, over POST and GET', async (t) => {
  const { tp, admin, gql, opened } = await platform(t, { GRAPHQL_MAX_TOKENS: '100000' });
  const before = opened.count;
  const bomb = await gql(aliased(1000, 'search(query: "x") { text }'));
  t.equal(bomb.status, 400);
  t.ok(codes(bomb.body).includes('TOO_MANY_ALIASES'));
  t.match(bomb.body.errors!.find((e) => e.extensions?.code === 'TOO_MANY_ALIASES')!.message, /1000 aliases; the limit is 30/);
  const get = await tp.request({ url: `/graphql?query=${encodeURIComponent(aliased(200, 'search(query: "x") { text }'))}`, token: admin.token });
  t.equal(get.status, 400);
  t.ok(codes(get.body).includes('TOO_MANY_ALIASES'), 'GET goes through the same limits');
  t.equal(opened.count, before, 'no resolver ran');
});

t.test('a deep query and an expensive connection are refused before running', async (t) => {
  const { gql, opened } = await platform(t);
  const before = opened.count;
  const deep = await gql(DEEP);
  t.equal(deep.status, 400);
  t.ok(codes(deep.body).includes('QUERY_TOO_DEEP'));
  t.match(deep.body.errors!.find((e) => e.extensions?.code === 'QUERY_TOO_DEEP')!.message, /14 fields deep; the limit is 12/);
  t.ok(codes(deep.body).includes('QUERY_TOO_COSTLY'), 'introspection cycles past the standard query\'s nesting are priced like any list');

  const expensive = await gql(EXPENSIVE);
  t.equal(expensive.status, 400);
  t.same(codes(expensive.body), ['QUERY_TOO_COSTLY']);
  t.match(expensive.body.errors![0].message, /costs \d+; the limit is 5000/);

  const byVariable = await gql(`query($n: Int) { collections(first: $n) { edges { node { documents(first: $n) {
    edges { node { chunks(first: $n) { edges { node { text } } } } } } } } } }`, { n: 1 });
  t.equal(byVariable.status, 400, 'a size given by a variable without default counts as the largest page (100)');
  t.same(codes(byVariable.body), ['QUERY_TOO_COSTLY']);
  t.equal(opened.count, before, 'nothing ran');
});

t.test('the settings move the limits', async (t) => {
  const { gql } = await platform(t, { GRAPHQL_MAX_DEPTH: '6', GRAPHQL_MAX_ALIASES: '2', GRAPHQL_MAX_COST: '40', GRAPHQL_MAX_TOKENS: '60' });
  const deep = await gql('{ collections(first: 2) { edges { node { documents(first: 2) { edges { node { id } } } } } } }');
  t.equal(deep.status, 400);
  t.same(codes(deep.body), ['QUERY_TOO_DEEP'], 'depth 7 is past GRAPHQL_MAX_DEPTH=6');
  t.notOk((await gql('{ collections(first: 2) { edges { node { documents(first: 2) { edges { cursor } } } } } }')).body.errors, 'depth 6 passes');

  t.same(codes((await gql(aliased(3, 'viewer { kind }'))).body), ['TOO_MANY_ALIASES']);
  t.notOk((await gql(aliased(2, 'viewer { kind }'))).body.errors);

  const costly = await gql('{ collections(first: 20) { edges { node { id } } } }');
  t.same(codes(costly.body), ['QUERY_TOO_COSTLY'], '20 edges × 2 fields and more is past GRAPHQL_MAX_COST=40');
  t.notOk((await gql('{ collections(first: 5) { edges { node { id } } } }')).body.errors);

  const large = await gql(`{ viewer { kind sub tenantId } ${'__typename '.repeat(60)} }`);
  t.equal(large.status, 400);
  t.same(codes(large.body), ['QUERY_TOO_LARGE']);
  t.match(large.body.errors![0].message, /more than 60 tokens/);
});

t.test('an invalid limit setting fails the boot with one clear line', async (t) => {
  await t.rejects(startTestPlatform(t, { env: { PLATFORM_MANIFEST: MANIFEST, GRAPHQL_MAX_DEPTH: '0' } }), /GRAPHQL_MAX_DEPTH must be a positive integer, got "0"/);
  await t.rejects(startTestPlatform(t, { env: { PLATFORM_MANIFEST: MANIFEST, GRAPHQL_MAX_COST: 'lots' } }), /GRAPHQL_MAX_COST must be a positive integer/);
});

// The other ways in: a workflow ACTION step calling an imported function (and
// failing clearly once it is removed), GraphQL `specs` and `functions(filter)`,
// and the CLI (import-openapi, specs, sync, functions list|call) run as a
// child process against the platform's database.
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, type TestPlatform } from 'agent-platform/sdk/testing';
import { petstore } from '../../../test/fixtures/integrations/specs.ts';
import { imported, integrationsFixture, MANIFEST, recentEvents, startApiServer, until } from './helpers.ts';

const cli = (tp: TestPlatform, args: string[]) =>
  runCli(args, { platform: tp, env: { PLATFORM_MANIFEST: MANIFEST, INTEGRATIONS_ALLOW_PRIVATE_NETWORKS: 'true' } });

async function graphql(tp: TestPlatform, token: string, query: string, variables: Record<string, unknown> = {}) {
  return tp.request({ method: 'POST', url: '/graphql', token, payload: { query, variables }, headers: { 'content-type': 'application/json' } });
}

t.test('a workflow ACTION step calls an imported function; a removed one fails the step clearly', async (t) => {
  // Listening: the job workers run the workflow.
  const { tp, token } = await integrationsFixture(t, { listen: true });
  const api = await startApiServer(t);
  const document = petstore(api.url) as Record<string, any>;
  api.serve('/openapi.json', document);
  const done = await imported(tp, token, { source: `${api.url}/openapi.json`, name: 'pets', prefix: 'pet', auth_value: 'wf-key' });
  const created = await tp.request({
    method: 'POST', url: '/api/admin/workflows', token,
    payload: { name: 'adopt', steps: [{ id: 'create', type: 'ACTION', handler: 'pet_create_pet', arguments: { name: '{{inputs.name}}', age: 2 }, output_key: 'created' }] },
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const run = async () => {
    const started = await tp.request({ method: 'POST', url: '/api/admin/workflows/adopt/execute', token, payload: { inputs: { name: 'Rex' } } });
    t.equal(started.status, 202);
    return until(async () => {
      const execution = await tp.request({ url: `/api/admin/executions/${started.body.execution_id}`, token });
      return ['completed', 'failed'].includes(execution.body.status) ? (Object.assign(state, { execution: execution.body }), true) : false;
    }, 'the execution to settle').then(() => state.execution);
  };
  const state: { execution?: any } = {};
  const ok = await run();
  t.equal(ok.status, 'completed', JSON.stringify(ok));
  t.match(ok.context.created, { status: 200, body: { method: 'POST', path: '/pets', body: { name: 'Rex', age: 2 } } });
  t.equal(api.calls().at(-1)!.headers['x-api-key'], 'wf-key');

  const without = structuredClone(document);
  delete without.paths['/pets'].post;
  api.serve('/openapi.json', without);
  const synced = await tp.request({ method: 'POST', url: `/api/admin/integrations/specs/${done.spec.id}/sync`, token });
  t.equal(synced.body.changes.remove, 1);
  const failed = await run();
  t.equal(failed.status, 'failed');
  t.match(JSON.stringify(failed), /pet_create_pet was removed/);
});

t.test('GraphQL: specs and functions(filter), both ways with totalCount, and a function\'s spec', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  await imported(tp, token, { spec: petstore(api.url), name: 'pets', prefix: 'pet', auth_value: 'gql-secret' });
  await imported(tp, token, { spec: petstore(api.url), name: 'more', prefix: 'more', include_operations: 'getPet' });

  const specs = await graphql(tp, token, `{ specs { totalCount edges { node { id name contentHash status functionCount auth { scheme valueSet }
    functions(first: 2) { edges { node { name } } pageInfo { hasNextPage } } } } } }`);
  t.equal(specs.status, 200, JSON.stringify(specs.body));
  t.notOk(specs.body.errors);
  const nodes = specs.body.data.specs.edges.map((e: { node: unknown }) => e.node);
  t.match(nodes, [
    { name: 'more', functionCount: 1, status: 'ACTIVE', auth: { scheme: 'apiKey', valueSet: false } },
    { name: 'pets', functionCount: 7, contentHash: /^sha256:/, auth: { valueSet: true }, functions: { edges: [{ node: { name: 'pet_create_pet' } }, {}], pageInfo: { hasNextPage: true } } },
  ]);
  t.notMatch(JSON.stringify(specs.body), /gql-secret/);
  t.equal(specs.body.data.specs.totalCount, 2);

  const fns = await graphql(tp, token, `query F($source: String) { functions(filter: { source: $source }, first: 50) {
    totalCount edges { node { name source status method path parameterLocations specId spec { name } } } } }`, { source: 'pets' });
  t.notOk(fns.body.errors, JSON.stringify(fns.body.errors));
  const edges = fns.body.data.functions.edges;
  t.equal(edges.length, 7);
  t.ok(edges.every((e: { node: { source: string } }) => e.node.source === 'pets'));
  t.equal(fns.body.data.functions.totalCount, 7);
  const petsId = nodes.find((node: { name: string }) => node.name === 'pets').id;
  t.match(edges.find((e: { node: { name: string } }) => e.node.name === 'pet_get_pet').node, {
    method: 'GET', path: '/pets/{petId}', status: 'ACTIVE', parameterLocations: { petId: { location: 'path' } }, specId: petsId, spec: { name: 'pets' },
  });
  const platform = await graphql(tp, token, '{ functions(filter: { source: "platform" }) { totalCount edges { node { name source spec { name } } } } }');
  const platformEdges = platform.body.data.functions.edges;
  t.ok(platformEdges.length > 0);
  t.ok(platformEdges.every((e: { node: { source: string; spec: unknown } }) => e.node.source === 'platform' && e.node.spec === null), 'platform functions have no spec');
  t.equal(platform.body.data.functions.totalCount, platformEdges.length);

  // Backward: the end of the list first, then the page before it, in list order.
  const names = (body: any, list: string) => body.data[list].edges.map((e: { node: { name: string } }) => e.node.name);
  const lastSpec = await graphql(tp, token, '{ specs(last: 1) { totalCount edges { node { name } } pageInfo { hasPreviousPage startCursor } } }');
  t.same(names(lastSpec.body, 'specs'), ['pets']);
  t.equal(lastSpec.body.data.specs.pageInfo.hasPreviousPage, true);
  const beforeSpec = await graphql(tp, token, 'query($b: String) { specs(last: 5, before: $b) { edges { node { name } } pageInfo { hasPreviousPage hasNextPage } } }', { b: lastSpec.body.data.specs.pageInfo.startCursor });
  t.same(names(beforeSpec.body, 'specs'), ['more']);
  t.same(beforeSpec.body.data.specs.pageInfo, { hasPreviousPage: false, hasNextPage: true });
  const allNames = names(await graphql(tp, token, '{ functions(first: 100) { edges { node { name } } } }').then((r) => r.body), 'functions');
  const lastThree = await graphql(tp, token, '{ functions(last: 3) { totalCount edges { node { name } } pageInfo { hasPreviousPage startCursor } } }');
  t.same(names(lastThree.body, 'functions'), allNames.slice(-3), 'platform and imported functions, merged by name');
  t.equal(lastThree.body.data.functions.totalCount, allNames.length);
  const beforeThree = await graphql(tp, token, 'query($b: String) { functions(last: 4, before: $b) { edges { node { name } } } }', { b: lastThree.body.data.functions.pageInfo.startCursor });
  t.same(names(beforeThree.body, 'functions'), allNames.slice(-7, -3));
  const removed = await graphql(tp, token, '{ functions(filter: { status: REMOVED }) { totalCount } specs { edges { node { name functions(filter: { source: "pets" }) { totalCount } } } } }');
  t.equal(removed.body.data.functions.totalCount, 0);
  t.same(removed.body.data.specs.edges.map((e: any) => [e.node.name, e.node.functions.totalCount]), [['more', 0], ['pets', 7]], 'a spec\'s functions of another source: none');

  const anonymous = await tp.request({ method: 'POST', url: '/graphql', payload: { query: '{ specs { edges { node { name } } } }' } });
  t.notOk(anonymous.body.data?.specs, 'no data without a token');
  t.match(anonymous.body.errors?.[0]?.message ?? String(anonymous.status), /auth|token|401|tenant/i);
});

t.test('CLI: import-openapi (preview, then --no-dry-run), specs, sync, functions list and call', async (t) => {
  // Listening: the job workers emit what the CLI enqueued.
  const { tp, token } = await integrationsFixture(t, { listen: true });
  const api = await startApiServer(t);
  api.serve('/openapi.json', petstore(api.url));
  const source = `${api.url}/openapi.json`;

  const preview = await cli(tp, ['import-openapi', source, '--tenant', 'acme', '--name', 'pets', '--prefix', 'pet', '--json']);
  t.equal(preview.code, 0, preview.stderr);
  t.match(JSON.parse(preview.stdout), { dry_run: true, changes: { create: 7 } });
  t.equal((await tp.request({ url: '/api/admin/integrations/specs', token })).body.total, 0, 'the preview stored nothing');

  const done = await cli(tp, [
    'import-openapi', source, '--tenant', 'acme', '--name', 'pets', '--prefix', 'pet', '--no-dry-run', '--auth-scheme', 'apiKey',
    '--auth-header', 'X-API-Key', '--auth-value', 'cli-secret', '--json',
  ]);
  t.equal(done.code, 0, done.stderr);
  const result = JSON.parse(done.stdout);
  t.match(result, { dry_run: false, spec: { name: 'pets', function_count: 7 } });
  t.notMatch(done.stdout, /cli-secret/);
  const stages = (...lines: string[]) => new RegExp(`^${lines.join('\n')}\n$`);
  const reading = `pets: reading ${source.replace(/[.?*+^$()[\]{}|\\/]/g, '\\$&')}`;
  t.match(done.stderr, stages(reading, 'pets: analysing \\d+ characters', 'pets: writing 7 functions'), 'the import reports its stages on stderr, stdout holds only the result');

  const dir = mkdtempSync(path.join(tmpdir(), 'integrations-cli-'));
  const file = path.join(dir, 'spec.json');
  writeFileSync(file, JSON.stringify(petstore(api.url)));
  const fromFile = await cli(tp, ['import-openapi', file, '--tenant', 'acme', '--name', 'filed', '--include-tags', 'admin', '--no-dry-run', '--json']);
  t.equal(fromFile.code, 0, fromFile.stderr);
  t.match(JSON.parse(fromFile.stdout).spec, { source_kind: 'file', function_count: 1 });

  const specs = await cli(tp, ['specs', '--tenant', 'acme', '--json']);
  t.equal(specs.code, 0, specs.stderr);
  t.match(JSON.parse(specs.stdout), { total: 2, items: [{ name: 'filed' }, { name: 'pets', content_hash: /^sha256:/, status: 'active', function_count: 7 }] });

  const skipped = await cli(tp, ['sync', result.spec.id, '--tenant', 'acme', '--json']);
  t.equal(skipped.code, 0, skipped.stderr);
  t.equal(JSON.parse(skipped.stdout).status, 'skipped');
  const forced = await cli(tp, ['sync', result.spec.id, '--tenant', 'acme', '--force', '--json']);
  t.equal(JSON.parse(forced.stdout).status, 'synced');
  t.match(forced.stderr, stages(reading, 'pets: analysing \\d+ characters', 'pets: applying the changes'), 'and so does a sync');

  const listed = await cli(tp, ['functions', 'list', '--tenant', 'acme', '--source', 'pets', '--json']);
  t.equal(listed.code, 0, listed.stderr);
  t.equal(JSON.parse(listed.stdout).total, 7);

  const called = await cli(tp, ['functions', 'call', 'pet_get_pet', '--tenant', 'acme', '--arguments', '{"petId": "p9"}', '--json']);
  t.equal(called.code, 0, called.stderr);
  t.match(JSON.parse(called.stdout), { status: 200, body: { path: '/pets/p9' } });
  t.equal(api.calls().at(-1)!.headers['x-api-key'], 'cli-secret');
  t.notMatch(called.stdout, /cli-secret/);

  const bad = await cli(tp, ['functions', 'call', 'pet_get_pet', '--tenant', 'acme', '--arguments', '{}']);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /petId/);
  const usage = await cli(tp, ['import-openapi', source, '--tenant', 'acme', '--name', 'x', '--auth-scheme', 'digest']);
  t.equal(usage.code, 1);
  t.match(usage.stderr, /auth-scheme/);

  // What the CLI changed is announced by the server's workers.
  await until(async () => (await recentEvents(tp, token)).some((e) => e.type === 'definition.created' && e.data.name === 'pet_get_pet'), 'definition.created from the CLI import');
  t.pass('the CLI import was announced');
});

// Declarative apply with the Source kind: dry-run plans
// (create, patch, noop, would-409, error; stream-level create, patch, noop,
// unmanaged) and writes nothing; apply performs every plan in one
// transaction; write-only credentials never appear nor are compared; editors only.
import t from 'tap';
import { sourcesPlatform, stored, userToken } from '../../pipelines-sources/test/helpers.ts';
import type { TestPlatform } from 'agent-platform/sdk/testing';

const SECRET = 'hunter2-apply-secret';
const API = 'agent-platform/v1';

function sourceDoc(name: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: API, kind: 'Source', metadata: { name },
    spec: {
      pattern_id: 'http_json',
      source_config: { url: 'https://api.example.com/items', records_path: 'data' },
      credential_values: { api_key: SECRET }, credential_name: `${name} key`,
      streams: [{ name: 'records', primary_key: ['id'], schema: { type: 'object', properties: { id: { type: 'integer' } } } }],
      ...spec,
    },
  };
}

/** The document without its write-only credential values (which always plan a change). */
function withoutCredentials(doc: ReturnType<typeof sourceDoc>) {
  const { credential_values: _values, credential_name: _name, ...spec } = doc.spec;
  return { ...doc, spec };
}

/** Everything apply could write, read as the superuser: rows of sources, streams, credentials and the lake registry. */
async function state(tp: TestPlatform) {
  const tables = ['pipeline_sources', 'pipeline_streams', 'pipeline_credentials', 'lake_datasets'];
  const rows = await Promise.all(tables.map((table) => stored(tp, `SELECT to_jsonb(t)::text AS row FROM ${table} t ORDER BY 1`)));
  return Object.fromEntries(tables.map((table, i) => [table, rows[i].map((r) => r.row)]));
}

t.test('dry-run plans a new source and its streams, names known kinds, and writes nothing', async (t) => {
  const { tp, asAcme } = await sourcesPlatform(t);
  const before = await state(tp);
  const planned = await asAcme('POST', '/api/v1/apply/dry-run', {
    docs: [
      sourceDoc('shop'),
      { apiVersion: 'other/v1', kind: 'Source', metadata: { name: 'x' }, spec: {} },
      { apiVersion: API, kind: 'Gadget', metadata: { name: 'g' }, spec: {} },
      sourceDoc('shop'),
      { apiVersion: API, kind: 'Source', metadata: { name: 'broken' }, spec: { pattern_id: 'http_json', source_config: { url: 'ftp://nope' } } },
    ],
  });
  t.equal(planned.status, 200);
  const [create, version, kind, twice, invalid] = planned.body.results;
  t.match(create, { index: 0, kind: 'Source', name: 'shop', action: 'create', streams: [{ name: 'records', action: 'create' }] });
  t.match(version, { action: 'error', message: /apiVersion must be agent-platform\/v1/ });
  t.match(kind, { action: 'error', message: /Unknown kind "Gadget": known kinds are .*Source/ });
  t.match(twice, { action: 'error', message: /declared twice/ });
  t.match(invalid, { action: 'error', message: /source_config does not fit the http_json pattern/ });
  t.notMatch(JSON.stringify(planned.body), SECRET, 'no credential value in a plan');
  t.same(await state(tp), before, 'a dry-run changes nothing, lake registry included');

  // A password in the wrong place, a pattern-breaking value: errors name fields, never values.
  const misplaced = await asAcme('POST', '/api/v1/apply/dry-run', {
    docs: [
      { apiVersion: API, kind: 'Source', metadata: { name: 'db' }, spec: { pattern_id: 'postgres', source_config: { host: 'db.internal', port: 5432, database: 'shop', user: 'reader', password: SECRET } } },
      { apiVersion: API, kind: 'Source', metadata: { name: 'db2' }, spec: { pattern_id: 'postgres', credential_ref: `cred_${SECRET}!!`, source_config: {} } },
    ],
  });
  t.match(misplaced.body.results, [{ action: 'error', message: /"password" is a credential field of postgres/ }, { action: 'error', message: /credential_ref/ }]);
  t.notMatch(JSON.stringify(misplaced.body), SECRET);
});

t.test('apply creates; the same documents then plan noop; changes plan patch with field paths only', async (t) => {
  const { tp, asAcme, asBeta } = await sourcesPlatform(t);
  // Another tenant's source of the same name is invisible.
  t.equal((await asBeta('POST', '/api/v1/apply', { docs: [sourceDoc('shop')] })).status, 200);

  const applied = await asAcme('POST', '/api/v1/apply', { docs: [sourceDoc('shop')] });
  t.equal(applied.status, 200);
  t.match(applied.body, { applied: true, results: [{ action: 'create' }] });
  const id = applied.body.results[0].id;
  const source = await asAcme('GET', `/api/v1/sources/${id}`);
  t.match(source.body, { name: 'shop', pattern_id: 'http_json', credential_fields_set: ['api_key'] });
  const streams = (await asAcme('GET', `/api/v1/sources/${id}/streams`)).body.items;
  t.match(streams, [{ name: 'records', primary_key: ['id'], destination: 'raw.acme.shop_records' }]);

  const again = await asAcme('POST', '/api/v1/apply/dry-run', { docs: [sourceDoc('shop')] });
  t.match(again.body.results[0], { action: 'patch', id, changes: ['spec.credential_values.api_key'], streams: [{ name: 'records', action: 'noop' }] }, 'credential values are never compared: always a change');
  const bare = await asAcme('POST', '/api/v1/apply/dry-run', { docs: [withoutCredentials(sourceDoc('shop'))] });
  t.match(bare.body.results[0], { action: 'noop', id, streams: [{ name: 'records', action: 'noop' }] }, 'without credential values: noop');

  // A stream created outside the document is unmanaged; changed config, credential and stream settings patch.
  t.equal((await asAcme('POST', `/api/v1/sources/${id}/streams`, { name: 'extra' })).status, 201);
  const changed = sourceDoc('shop', {
    source_config: { url: 'https://api.example.com/items', records_path: 'items' },
    credential_values: { api_key: 'rotated-secret-value' },
    streams: [{ name: 'records', primary_key: ['id'], enabled: false }, { name: 'more' }],
  });
  const before = await state(tp);
  const plan = await asAcme('POST', '/api/v1/apply/dry-run', { docs: [changed] });
  t.match(plan.body.results[0], { action: 'patch', id });
  t.same(plan.body.results[0].changes.sort(), ['spec.credential_values.api_key', 'spec.source_config.records_path', 'spec.streams.records.enabled'].sort());
  t.same(plan.body.results[0].streams, [{ name: 'records', action: 'patch' }, { name: 'more', action: 'create' }, { name: 'extra', action: 'unmanaged' }]);
  t.notMatch(JSON.stringify(plan.body), /rotated-secret-value|hunter2/);
  t.same(await state(tp), before, 'the patch plan wrote nothing');

  const patched = await asAcme('POST', '/api/v1/apply', { docs: [changed] });
  t.equal(patched.status, 200);
  t.equal(patched.body.results[0].id, id);
  const after = (await asAcme('GET', `/api/v1/sources/${id}/streams`)).body.items;
  t.same(after.map((s: { name: string; enabled: boolean }) => [s.name, s.enabled]), [['extra', true], ['more', true], ['records', false]]);
  t.equal((await asAcme('GET', `/api/v1/sources/${id}`)).body.source_config.records_path, 'items');
  t.match((await asAcme('POST', '/api/v1/apply/dry-run', { docs: [withoutCredentials(changed)] })).body.results[0], { action: 'noop' });

  // A name taken by a source of another pattern, a destination another stream lands in: would-409.
  const otherPattern = await asAcme('POST', '/api/v1/apply/dry-run', { docs: [sourceDoc('shop', { pattern_id: 'csv', source_config: { url: 'https://x.example/a.csv' } })] });
  t.match(otherPattern.body.results[0], { action: 'would-409', message: /pattern cannot change/ });
  const taken = sourceDoc('shop2', { streams: [{ name: 'records', destination: 'raw.acme.shop_records' }] });
  t.match((await asAcme('POST', '/api/v1/apply/dry-run', { docs: [taken] })).body.results[0], { action: 'would-409', message: /where another stream lands/ });
  const refused = await asAcme('POST', '/api/v1/apply', { docs: [taken] });
  t.equal(refused.status, 409);
  t.equal(refused.body.code, 'APPLY_CONFLICT');
  t.equal(refused.body.results[0].action, 'would-409');
});

t.test('apply is all or nothing', async (t) => {
  const { tp, asAcme } = await sourcesPlatform(t);
  const before = await state(tp);
  // Planned alone, each is a create; performed together the last one collides (same destination).
  const first = sourceDoc('one', { streams: [{ name: 'records', destination: 'raw.acme.shared' }] });
  const last = sourceDoc('two', { streams: [{ name: 'records', destination: 'raw.acme.shared' }] });
  const failed = await asAcme('POST', '/api/v1/apply', { docs: [first, last] });
  t.equal(failed.status, 409);
  t.match(failed.body.message, /Document 1 \(Source "two"\).*nothing was applied/);
  t.same(await state(tp), before, 'the first document was rolled back');

  const invalid = await asAcme('POST', '/api/v1/apply', { docs: [sourceDoc('one'), { apiVersion: API, kind: 'Nope', metadata: { name: 'n' }, spec: {} }] });
  t.equal(invalid.status, 400);
  t.equal(invalid.body.code, 'APPLY_INVALID');
  t.match(invalid.body.results, [{ action: 'create' }, { action: 'error' }]);
  t.same(await state(tp), before);
});

t.test('YAML: a stream of documents, dates as ISO 8601 strings, other scalars keep their types', async (t) => {
  const { asAcme, acme, tp } = await sourcesPlatform(t);
  const yaml = `apiVersion: ${API}
kind: Source
metadata: {name: dated}
spec:
  pattern_id: http_json
  credential_values: {api_key: "${SECRET}"}
  credential_name: dated key
  source_config:
    url: https://api.example.com/x
    records_path: 2024-01-05
    max_pages: 12
    pagination: {type: cursor, param: c, path: 2024-01-05T10:30:00Z}
---
apiVersion: ${API}
kind: Source
metadata: {name: second}
spec: {pattern_id: http_json, source_config: {url: "https://api.example.com/y"}}
`;
  const applied = await tp.request({ method: 'POST', url: '/api/v1/apply', token: acme.token, tenant: 'acme', payload: yaml, headers: { 'content-type': 'application/yaml' } });
  t.equal(applied.status, 200, JSON.stringify(applied.body));
  t.match(applied.body.results, [{ name: 'dated', action: 'create' }, { name: 'second', action: 'create' }]);
  const config = (await asAcme('GET', `/api/v1/sources/${applied.body.results[0].id}`)).body.source_config;
  t.equal(config.records_path, '2024-01-05');
  t.equal(config.pagination.path, '2024-01-05T10:30:00.000Z');
  t.equal(config.max_pages, 12);

  // One YAML document holding the envelope.
  const envelope = `docs:\n  - apiVersion: ${API}\n    kind: Source\n    metadata: {name: second}\n    spec: {pattern_id: http_json, source_config: {url: "https://api.example.com/y"}}\nallow_deprecate: false\n`;
  const planned = await tp.request({ method: 'POST', url: '/api/v1/apply/dry-run', token: acme.token, tenant: 'acme', payload: envelope, headers: { 'content-type': 'application/yaml' } });
  t.match(planned.body.results, [{ action: 'noop' }]);
});

t.test('YAML values JSON cannot carry: a sanitized 400 echoing neither the spec nor credentials', async (t) => {
  const { tp, acme } = await sourcesPlatform(t);
  const doc = (extra: string) => `apiVersion: ${API}\nkind: Source\nmetadata: {name: bad}\nspec:\n  pattern_id: http_json\n  password: ${SECRET}\n  credential_values: {api_key: ${SECRET}}\n  source_config: {url: "https://internal.example/secret-path"}\n${extra}`;
  const cases: [string, string][] = [
    ['!!binary', doc('  blob: !!binary aGVsbG8=\n')],
    ['!!set', doc('  tags: !!set {a, b}\n')],
    ['a custom tag', doc('  odd: !vault hunter\n')],
    ['NaN', doc('  ratio: .nan\n')],
    ['infinity', doc('  ratio: -.inf\n')],
    ['a non-string key', doc('  map: {1: one}\n')],
    ['a cycle', doc('  loop: &a [1, *a]\n')],
    ['a syntax error', doc('  broken: [unclosed, hunter2-apply-secret\n')],
    ['a NUL', doc('  text: "a\\0b"\n')],
  ];
  for (const [what, payload] of cases) {
    const response = await tp.request({ method: 'POST', url: '/api/v1/apply/dry-run', token: acme.token, tenant: 'acme', payload, headers: { 'content-type': 'application/yaml' } });
    t.equal(response.status, 400, what);
    t.equal(response.body.code, 'APPLY_YAML_INVALID', what);
    t.notMatch(response.body.message, SECRET, `${what}: no credential echoed`);
    t.notMatch(response.body.message, /internal\.example|secret-path|aGVsbG8|hunter/, `${what}: nothing of the spec echoed`);
  }
  const json = await tp.request({ method: 'POST', url: '/api/v1/apply/dry-run', token: acme.token, tenant: 'acme', payload: `{"docs": [{"x": "${SECRET}"`, headers: { 'content-type': 'application/json' } });
  t.equal(json.status, 400);
  t.notMatch(JSON.stringify(json.body), SECRET);
});

t.test('only editors plan or apply, for an explicit tenant', async (t) => {
  const { tp } = await sourcesPlatform(t);
  const viewer = await userToken(tp, 'acme-viewer', ['acme']);
  const editor = await userToken(tp, 'acme-editor', ['acme'], ['pipeline_editor']);
  const body = { docs: [sourceDoc('shop')] };
  const asViewer = await tp.request({ method: 'POST', url: '/api/v1/apply/dry-run', token: viewer, tenant: 'acme', payload: body });
  t.equal(asViewer.status, 403);
  t.equal(asViewer.body.code, 'ROLE_REQUIRED');
  const badYaml = await tp.request({ method: 'POST', url: '/api/v1/apply', token: viewer, tenant: 'acme', payload: 'a: !!binary x', headers: { 'content-type': 'application/yaml' } });
  t.equal(badYaml.status, 403, 'roles are checked before the body is read');
  const noTenant = await tp.request({ method: 'POST', url: '/api/v1/apply/dry-run', token: editor, payload: body });
  t.equal(noTenant.status, 400);
  t.equal(noTenant.body.code, 'TENANT_REQUIRED');
  const asEditor = await tp.request({ method: 'POST', url: '/api/v1/apply/dry-run', token: editor, tenant: 'acme', payload: body });
  t.equal(asEditor.status, 200);
});

t.test('legacy_inline credentials: never compared with the sealed values, never shown; aliases expand within limits', async (t) => {
  const { tp, asAcme, acme } = await sourcesPlatform(t, { SOURCE_CREDENTIAL_MODE: 'legacy_inline' });
  const inline = (key: string) => ({
    apiVersion: API, kind: 'Source', metadata: { name: 'inline' },
    spec: { pattern_id: 'http_json', source_config: { url: 'https://api.example.com/i' }, credential_values: { api_key: key } },
  });
  const created = await asAcme('POST', '/api/v1/apply', { docs: [inline(SECRET)] });
  t.equal(created.status, 200, JSON.stringify(created.body));
  const right = await asAcme('POST', '/api/v1/apply/dry-run', { docs: [inline(SECRET)] });
  const rotated = await asAcme('POST', '/api/v1/apply/dry-run', { docs: [inline('another-secret')] });
  t.match(rotated.body.results[0], { action: 'patch', changes: ['spec.credential_values.api_key'] });
  t.same(right.body, rotated.body, 'the stored value and another plan alike');
  t.notMatch(JSON.stringify(rotated.body), /another-secret|hunter2/);
  const sealed = await stored(tp, 'SELECT source_config::text AS config FROM pipeline_sources');
  t.notMatch(sealed[0].config, SECRET, 'sealed at rest');

  // Aliases that do not cycle are expanded; a "billion laughs" expansion is refused.
  const reused = `apiVersion: ${API}\nkind: Source\nspec: {pattern_id: http_json, source_config: &cfg {url: "https://api.example.com/i"}}\nmetadata: {name: inline, copied: *cfg}\n`;
  const planned = await tp.request({ method: 'POST', url: '/api/v1/apply/dry-run', token: acme.token, tenant: 'acme', payload: reused, headers: { 'content-type': 'application/yaml' } });
  t.equal(planned.status, 200, JSON.stringify(planned.body));
  t.match(planned.body.results[0], { action: 'noop' }, 'the alias expanded to the same config');
  const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) laughs.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
  const bomb = await tp.request({ method: 'POST', url: '/api/v1/apply/dry-run', token: acme.token, tenant: 'acme', payload: `${laughs.join('\n')}\n`, headers: { 'content-type': 'application/yaml' } });
  t.equal(bomb.status, 400);
  t.match(bomb.body, { code: 'APPLY_TOO_LARGE', message: /stand for more than 200000 values/ });
});

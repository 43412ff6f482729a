// Entity resolution with a policy (the dry run and the api's match): records with typos, accents and formatting differences merge with
// the rule that matched; different people stay apart; blocks keep matching
// sub-quadratic; datasets are sampled under the lake's read rule; nothing is
// stored.
import t from 'tap';
import type { IdentityApi } from '../api.ts';
import type { LakehouseApi } from '../../lakehouse/api.ts';
import { identityPlatform, PEOPLE_POLICY } from './helpers.ts';
import { stored } from '../../pipelines-sources/test/helpers.ts';

const RECORDS = [
  { ref: 'a1', values: { name: 'José Álvarez', email: 'Jose.Alvarez+news@Gmail.com', postcode: '1000-001', birth_date: '1980-02-01' } },
  { ref: 'a2', values: { name: 'JOSE ALVAREZ', email: ' josealvarez@gmail.com' } },
  { ref: 'b1', values: { name: 'Maria Conceição Silva', phone: '+351 912 345 678', postcode: '1100-200', birth_date: '1975-05-05' } },
  { ref: 'b2', values: { name: 'Maria Conceicao  Silva', phone: '912-345-678' } },
  { ref: 'b3', values: { name: 'maria conceicão silvaa', birth_date: '1975-05-05', postcode: '1100-200' } },
  { ref: 'c1', values: { tax_id: 'PT501', name: 'Acme Lda' } },
  { ref: 'c2', values: { tax_id: 'PT501', name: 'ACME, Limitada' } },
  { ref: 'd1', values: { name: 'Joaquim Ferreira', street: 'Avenida da Liberdade 120', postcode: '1250-096' } },
  { ref: 'd2', values: { name: 'Joaquin Fereira', street: 'Av. da Liberdade, 120', postcode: ' 1250-096 ' } },
  // Different people: a neighbour at the same address, a namesake born another year, another e-mail provider.
  { ref: 'e1', values: { name: 'Ana Ferreira', street: 'Avenida da Liberdade 120', postcode: '1250-096' } },
  { ref: 'e2', values: { name: 'Mario Conceição Silva', birth_date: '1950-01-01', postcode: '1100-200', street: 'Rua do Ouro 5' } },
  { ref: 'e3', values: { name: 'José Álvarez', email: 'jose.alvarez@example.com', birth_date: '1991-07-07' } },
];

t.test('dry run: typos, accents and formats merge with the right rule; different people do not', async (t) => {
  const { tp, asAcme } = await identityPlatform(t);
  const id = (await asAcme('POST', '/api/v1/identity-policies', PEOPLE_POLICY)).body.id;
  const before = await stored(tp, 'SELECT count(*)::int AS n FROM identity_policy_versions');
  const res = await asAcme('POST', `/api/v1/identity-policies/${id}/dry-run`, { records: RECORDS });
  t.equal(res.status, 200, JSON.stringify(res.body));
  const merges = Object.fromEntries(res.body.merges.map((m: { a: string; b: string; rule: string }) => [`${m.a}-${m.b}`, m.rule]));
  t.same(merges, {
    'c1-c2': 'same_tax_id',
    'a1-a2': 'same_email',
    'b1-b2': 'same_phone',
    'b1-b3': 'similar_name_same_birth',
    'd1-d2': 'similar_name_and_street',
  });
  const fuzzy = res.body.merges.find((m: { rule: string }) => m.rule === 'similar_name_same_birth');
  t.ok(fuzzy.score >= 0.5 && fuzzy.score <= 1, `score ${fuzzy.score}`);
  t.same(res.body.clusters, [['a1', 'a2'], ['b1', 'b2', 'b3'], ['c1', 'c2'], ['d1', 'd2']]);
  t.same([res.body.records, res.body.version, res.body.stored, res.body.skipped_blocks], [RECORDS.length, 1, false, []]);
  t.same(await stored(tp, 'SELECT count(*)::int AS n FROM identity_policy_versions'), before, 'nothing stored');
});

t.test('a pair already merged by an earlier rule is not reported again', async (t) => {
  const { asAcme } = await identityPlatform(t);
  const policy = { name: 'two', rules: [
    { name: 'email', kind: 'normalized', fields: [{ field: 'email', normalizers: ['email'] }] },
    { name: 'name', kind: 'normalized', fields: [{ field: 'name', normalizers: ['case', 'accents'] }] },
  ] };
  const id = (await asAcme('POST', '/api/v1/identity-policies', policy)).body.id;
  const records = [
    { ref: 'x', values: { email: 'A@B.PT', name: 'Zé' } },
    { ref: 'y', values: { email: 'a@b.pt', name: 'ze' } },
    { ref: 'z', values: { email: 'c@d.pt', name: 'ZE' } },
  ];
  const res = await asAcme('POST', `/api/v1/identity-policies/${id}/dry-run`, { records });
  t.same(res.body.merges, [{ a: 'x', b: 'y', rule: 'email' }, { a: 'x', b: 'z', rule: 'name' }]);
  t.same(res.body.clusters, [['x', 'y', 'z']]);
});

t.test('blocks larger than max_block_size are skipped and reported', async (t) => {
  const { asAcme } = await identityPlatform(t);
  const policy = { name: 'blocked', max_block_size: 2, blocking_keys: [{ field: 'city', normalizers: ['case'] }],
    rules: [{ name: 'name', kind: 'fuzzy', fields: [{ field: 'name', normalizers: ['case'], threshold: 0.5 }] }] };
  const id = (await asAcme('POST', '/api/v1/identity-policies', policy)).body.id;
  const records = [
    { ref: '1', values: { city: 'Lisboa', name: 'Rui Costa' } }, { ref: '2', values: { city: 'LISBOA', name: 'Rui Costta' } },
    { ref: '3', values: { city: 'lisboa', name: 'Rui Kosta' } }, { ref: '4', values: { city: 'Porto', name: 'Ana Lima' } },
    { ref: '5', values: { city: 'porto', name: 'Ana Limma' } },
  ];
  const res = await asAcme('POST', `/api/v1/identity-policies/${id}/dry-run`, { records });
  t.same(res.body.clusters, [['4', '5']]);
  t.same(res.body.skipped_blocks, [{ key: 'blocking key city: lisboa', size: 3 }]);
});

t.test('dry run on a dataset sample: readable datasets only; a dry run of another tenant\'s policy is 404', async (t) => {
  const { tp, asAcme, asBeta } = await identityPlatform(t);
  const lake = tp.platform.server.plugins.lakehouse.api as LakehouseApi;
  const columns = [{ name: 'id', type: 'text' as const }, { name: 'name', type: 'text' as const }, { name: 'email', type: 'text' as const }];
  for (const tenant of ['acme', 'beta']) {
    const datasetId = `raw.${tenant}.people`;
    await lake.ensureDataset(tenant, { datasetId, columns, primaryKey: ['id'], producer: { kind: 'source_stream', id: 'test' } });
    await lake.write(tenant, datasetId, { mode: 'overwrite', primaryKey: ['id'], source: { kind: 'records', batches: [[
      { id: 'p1', name: 'Ana', email: 'Ana.Silva@Gmail.com' }, { id: 'p2', name: 'Ana S.', email: 'anasilva@gmail.com' }, { id: 'p3', name: 'Rui', email: 'rui@x.pt' },
    ]] } });
  }
  const policy = { name: 'mail', rules: [{ name: 'mail', kind: 'normalized', fields: [{ field: 'email', normalizers: ['email:gmail'] }] }] };
  const id = (await asAcme('POST', '/api/v1/identity-policies', policy)).body.id;
  const res = await asAcme('POST', `/api/v1/identity-policies/${id}/dry-run`, { dataset_id: 'raw.acme.people', ref_column: 'id' });
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.same([res.body.records, res.body.clusters], [3, [['p1', 'p2']]]);
  const foreign = await asAcme('POST', `/api/v1/identity-policies/${id}/dry-run`, { dataset_id: 'raw.beta.people', ref_column: 'id' });
  t.equal(foreign.status, 403);
  const badColumn = await asAcme('POST', `/api/v1/identity-policies/${id}/dry-run`, { dataset_id: 'raw.acme.people', ref_column: 'nope' });
  t.same([badColumn.status, badColumn.body.code], [400, 'IDENTITY_REF_COLUMN_UNKNOWN']);
  t.equal((await asAcme('POST', `/api/v1/identity-policies/${id}/dry-run`, { records: [{ ref: 'a', values: {} }], dataset_id: 'raw.acme.people' })).status, 400);
  t.equal((await asAcme('POST', `/api/v1/identity-policies/${id}/dry-run`, { records: [{ ref: 'a', values: {} }, { ref: 'a', values: {} }] })).body.code, 'IDENTITY_DUPLICATE_REF');
  t.equal((await asBeta('POST', `/api/v1/identity-policies/${id}/dry-run`, { records: [] })).status, 404);
});

t.test('the api: getPolicy by version, tenant-scoped; match gives what the dry run gives', async (t) => {
  const { tp, asAcme } = await identityPlatform(t);
  const api = tp.platform.server.plugins.identity.api;
  const id = (await asAcme('POST', '/api/v1/identity-policies', PEOPLE_POLICY)).body.id;
  const changed = structuredClone(PEOPLE_POLICY);
  changed.rules.pop();
  await asAcme('PUT', `/api/v1/identity-policies/${id}`, changed);
  const current = await api.getPolicy('acme', id);
  const first = await api.getPolicy('acme', id, 1);
  t.same([current?.version, current?.rules.length, first?.version, first?.rules.length], [2, 4, 1, 5]);
  t.equal(await api.getPolicy('beta', id), null);
  t.equal(await api.getPolicy('acme', id, 9), null);
  t.equal(await api.getPolicy('acme', 'not-a-uuid'), null);
  const result = await api.match('acme', first!, RECORDS);
  t.same(result.clusters, [['a1', 'a2'], ['b1', 'b2', 'b3'], ['c1', 'c2'], ['d1', 'd2']]);
});

t.test('a dry run body larger than the platform default (1 MiB) is taken up to IDENTITY_DRY_RUN_MAX_RECORDS', async (t) => {
  const { asAcme } = await identityPlatform(t, { IDENTITY_DRY_RUN_MAX_RECORDS: '6000' });
  const policy = { name: 'mail', rules: [{ name: 'mail', kind: 'normalized', fields: [{ field: 'email', normalizers: ['email'] }] }] };
  const id = (await asAcme('POST', '/api/v1/identity-policies', policy)).body.id;
  const pad = 'x'.repeat(150);
  const records = Array.from({ length: 6000 }, (_, i) => ({ ref: `r${i}`, values: { email: `person${i % 3000}@example.pt`, note: pad } }));
  const res = await asAcme('POST', `/api/v1/identity-policies/${id}/dry-run`, { records });
  t.equal(res.status, 200);
  t.same([res.body.records, res.body.clusters.length, res.body.merges.length], [6000, 3000, 3000]);
  const tooMany = await asAcme('POST', `/api/v1/identity-policies/${id}/dry-run`, { records: [...records, { ref: 'extra', values: {} }] });
  t.same([tooMany.status, tooMany.body.code], [400, 'IDENTITY_DRY_RUN_TOO_LARGE']);
});

t.test('matching past IDENTITY_MATCH_TIMEOUT_SECONDS is a 422 that changes nothing: SQL_TIMEOUT for a dry run, IDENTITY_MATCH_TIMEOUT for the api', async (t) => {
  const { tp, asAcme } = await identityPlatform(t, { IDENTITY_MATCH_TIMEOUT_SECONDS: '1', IDENTITY_DRY_RUN_MAX_RECORDS: '8000' });
  // One block holding every record: 32 million trigram comparisons, far more than a second's work.
  const policy = { name: 'one_block', max_block_size: 100_000, blocking_keys: [{ field: 'city' }],
    rules: [{ name: 'name', kind: 'fuzzy', fields: [{ field: 'name', threshold: 0.99 }] }] };
  const id = (await asAcme('POST', '/api/v1/identity-policies', policy)).body.id;
  const records = Array.from({ length: 8000 }, (_, i) => ({ ref: `r${i}`, values: { city: 'Lisboa', name: `person number ${i * 7919}` } }));
  const res = await asAcme('POST', `/api/v1/identity-policies/${id}/dry-run`, { records });
  t.same([res.status, res.body.code], [422, 'SQL_TIMEOUT']);
  t.match(res.body.message, /IDENTITY_MATCH_TIMEOUT_SECONDS/, 'the smaller budget, the policy\'s, is named');
  t.equal((await asAcme('GET', `/api/v1/identity-policies/${id}`)).status, 200);
  const api = tp.platform.server.plugins.identity.api as IdentityApi;
  const version = (await api.getPolicy('acme', id))!;
  await t.rejects(api.match('acme', version, records), { output: { statusCode: 422, payload: { code: 'IDENTITY_MATCH_TIMEOUT' } } } as never);
});

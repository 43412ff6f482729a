// The AI endpoints without a model: suggestions and review-sql
// answer from deterministic rules; the model-only endpoints answer 503
// MODEL_NOT_CONFIGURED; publish-transform refuses a draft whose review has
// errors; datasets follow the read rule; roles.
import t from 'tap';
import { aiPlatform } from './helpers.ts';

t.test('suggest-target-schema and suggest-field-mappings from names, types and sample values', async (t) => {
  const { asAcme, people } = await aiPlatform(t);
  const schema = await asAcme.post('/ai/suggest-target-schema', { dataset_id: people });
  t.equal(schema.status, 200, JSON.stringify(schema.body));
  t.equal(schema.body.source, 'rules');
  const byName = Object.fromEntries(schema.body.fields.map((f: { name: string }) => [f.name, f]));
  t.match(byName.email_address, { type: 'text', format: 'email', source_column: 'email_address', required: true });
  t.match(byName.signup, { type: 'date', reason: /text holding date values/ });
  t.match(byName.spent, { type: 'double' });
  t.match(byName.full_name, { required: false });
  t.same(schema.body.primary_key, ['id']);

  const mapped = await asAcme.post('/ai/suggest-field-mappings', {
    source_dataset: people,
    target_fields: [{ name: 'customerEmail', type: 'email' }, { name: 'customer_id', type: 'integer' }, { name: 'signup_date', type: 'date' }, { name: 'zzz_unrelated', type: 'boolean' }],
  });
  t.equal(mapped.status, 200, JSON.stringify(mapped.body));
  const pairs = Object.fromEntries(mapped.body.mappings.map((m: { target: string; source: string }) => [m.target, m.source]));
  t.same(pairs, { customerEmail: 'email_address', customer_id: 'id', signup_date: 'signup' });
  t.same(mapped.body.unmapped_targets, ['zzz_unrelated']);
  t.ok(mapped.body.mappings.every((m: { confidence: number }) => m.confidence > 0 && m.confidence <= 1));

  const onto = await asAcme.post('/ai/suggest-field-mappings', { source_dataset: people, target_dataset: people });
  t.equal(onto.body.mappings.length, 5, 'a dataset maps onto itself column by column');
});

t.test('suggest-pattern-params fills a JSON Schema from the columns; a source pattern\'s credentials are left out', async (t) => {
  const { asAcme, people } = await aiPlatform(t);
  const filled = await asAcme.post('/ai/suggest-pattern-params', {
    dataset_id: people,
    params_schema: {
      type: 'object', required: ['input_dataset', 'key_column', 'limit'],
      properties: {
        input_dataset: { type: 'string' }, key_column: { type: 'string' }, partition_by: { type: 'array', items: { type: 'string' } },
        updated_time_column: { type: 'string' }, limit: { type: 'integer', default: 100 }, mode: { enum: ['first', 'last'] }, free_text: { type: 'string' },
      },
    },
  });
  t.equal(filled.status, 200, JSON.stringify(filled.body));
  t.match(filled.body.params, { input_dataset: people, key_column: 'id', limit: 100, mode: 'first', updated_time_column: 'signup' });
  t.ok(Array.isArray(filled.body.params.partition_by));
  t.same(filled.body.unfilled, ['free_text']);
  t.equal(filled.body.valid, true);

  // A built-in transform pattern, read through its route; the suggestion passes the pattern's own validation.
  const dedupe = await asAcme.post('/ai/suggest-pattern-params', { dataset_id: people, pattern_id: 'dedupe_by_key' });
  t.equal(dedupe.status, 200, JSON.stringify(dedupe.body));
  t.match(dedupe.body, { source: 'rules', valid: true, params: { input: people, key: ['id'], keep: 'newest' } });
  const checked = await asAcme.post('/transform-patterns/dedupe_by_key/validate', { parameters: dedupe.body.params });
  t.equal(checked.body.valid, true, JSON.stringify(checked.body));

  const source = await asAcme.post('/ai/suggest-pattern-params', { dataset_id: people, pattern_kind: 'source', pattern_id: 'http_json' });
  t.equal(source.status, 200, JSON.stringify(source.body));
  t.notOk('api_key' in source.body.params, 'credential fields are never suggested');
  t.equal((await asAcme.post('/ai/suggest-pattern-params', { dataset_id: people, pattern_kind: 'source', pattern_id: 'nope' })).status, 404);
  t.match((await asAcme.post('/ai/suggest-pattern-params', { dataset_id: people, pattern_id: 'nope' })).body, { statusCode: 404, code: 'PATTERN_NOT_FOUND' });
});

t.test('the owning plugins\' apis answer a pattern as their routes do (what suggest-pattern-params reads)', async (t) => {
  const { tp, asAcme } = await aiPlatform(t);
  const transforms = tp.platform.server.plugins['pipelines-transforms'].api;
  const sources = tp.platform.server.plugins['pipelines-sources'].api;
  const dedupe = await transforms.getTransformPattern('dedupe_by_key');
  t.same(dedupe?.parametersSchema, (await asAcme.get('/transform-patterns/dedupe_by_key')).body.parameters_schema);
  t.equal(await transforms.getTransformPattern('nope'), null);
  const http = await sources.getPattern('http_json');
  const route = (await asAcme.get('/patterns/http_json')).body;
  t.same({ configSchema: http?.configSchema, credentialFields: http?.credentialFields }, { configSchema: route.config_schema, credentialFields: route.credential_fields });
  t.ok(http?.credentialFields.includes('api_key'));
  t.equal(await sources.getPattern('nope'), null);
});

t.test('review-sql, publish-transform, and the model-only endpoints without a model', async (t) => {
  const { asAcme, people } = await aiPlatform(t);
  const star = await asAcme.post('/ai/review-sql', { sql: `SELECT * FROM ${people}` });
  t.equal(star.status, 200);
  t.match(star.body, { ok: true, findings: [{ rule: 'select-star' }] });
  const broken = await asAcme.post('/ai/review-sql', { sql: `SELECT id,\n  FROM ${people}` });
  t.match(broken.body, { ok: false, analysis: { ok: false, errors: [{ code: 'SQL_SYNTAX', line: 2 }] } });

  for (const [path, body] of [
    ['/ai/generate-transform', { prompt: 'emails by month', inputs: [people] }],
    ['/ai/fix-ci-failure', { sql: 'SELECT 1', error: 'boom' }],
    ['/ai/compose-pipeline', { prompt: 'clean people', inputs: [people] }],
  ] as const) {
    const refused = await asAcme.post(path, body);
    t.equal(refused.status, 503, path);
    t.equal(refused.body.code, 'MODEL_NOT_CONFIGURED', path);
    t.match(refused.body.message, /No model is configured \(LLM_BASE_URL\)/);
  }

  const rejected = await asAcme.post('/ai/publish-transform', { name: 'broken', sql: `SELECT id,\n FROM ${people}` });
  t.equal(rejected.status, 422);
  t.equal(rejected.body.code, 'REVIEW_HAS_ERRORS');
  t.match(rejected.body.findings, [{ code: 'SQL_SYNTAX' }]);
  t.equal((await asAcme.get('/transforms')).body.items.length, 0, 'nothing was created');

  const published = await asAcme.post('/ai/publish-transform', { name: 'emails', sql: `SELECT id, email_address FROM ${people}` });
  t.equal(published.status, 201, JSON.stringify(published.body));
  t.match(published.body.transform, { name: 'emails' });
  t.equal((await asAcme.get(`/transforms/${published.body.transform.id}`)).status, 200);
});

t.test('datasets follow the read rule; members read, editors draft', async (t) => {
  const { asAcme, asViewer } = await aiPlatform(t);
  const foreign = await asAcme.post('/ai/suggest-target-schema', { dataset_id: 'raw.beta.people' });
  t.equal(foreign.status, 403, 'another tenant\'s dataset');
  t.notMatch(JSON.stringify(foreign.body), /Bob|bob@/);
  t.equal((await asViewer.post('/ai/review-sql', { sql: 'SELECT 1 AS one' })).status, 200);
  const drafting = await asViewer.post('/ai/publish-transform', { name: 'x', sql: 'SELECT 1 AS one' });
  t.equal(drafting.status, 403);
  t.equal(drafting.body.code, 'ROLE_REQUIRED');
  t.equal((await asAcme.get('/ai/compose-pipeline/00000000-0000-4000-8000-000000000000/status')).status, 404);
});

// Model-assisted mapping suggestions (POST /backing-datasets/suggest-mappings)
// with a real OpenAI-compatible server on loopback (the scripted model): the
// pipelines-ai api asks the model, names outside the dataset or the type get
// one repair round-trip, and a model that still fails (or is down) leaves the
// deterministic rules to answer; `method` says which did. Without a model, or
// without the pipelines-ai plugin, the rules answer and no model is asked.
import t from 'tap';
import { ScriptedLlm } from '../../../test/fixtures/chat/scripted-llm.ts';
import { startTestPlatform, tenantWithAdmin } from 'agent-platform/sdk/testing';
import { reply } from '../../pipelines-ai/test/helpers.ts';
import { LIGHTS, lakeOf, lightRows, ontologyPlatform, streetLight, writeLights } from './helpers.ts';

const RULES = [['email', 'contact'], ['id', 'light_id'], ['watts', 'watts']];
const pairs = (body: { mappings: { column: string; property: string }[] }) => body.mappings.map((m) => [m.column, m.property]);
const ask = { dataset_id: LIGHTS, entity_type: 'street_light' };

async function scripted(t: Tap) {
  const llm = await new ScriptedLlm().start();
  t.teardown(() => llm.stop());
  return { llm, env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'scripted-1', LLM_API_KEY: 'sk-scripted-key', PIPELINES_AI_ALLOW_PRIVATE_NETWORKS: 'true' } };
}
type Tap = Parameters<typeof startTestPlatform>[0];

t.test('the model maps the columns; unknown names are repaired once; the result registers', async (t) => {
  const { llm, env } = await scripted(t);
  const { asAcme, lake } = await ontologyPlatform(t, env, { workers: false });
  await writeLights(lake, lightRows(5));
  t.equal((await asAcme('POST', '/api/v1/ontology/entity-types', streetLight)).status, 201);
  llm.enqueue(
    reply({ mappings: [{ target: 'light_id', source: 'lamp_id', confidence: 0.9 }, { target: 'colour', source: 'label', confidence: 0.5 }] }),
    reply({ mappings: [
      { target: 'light_id', source: 'id', confidence: 0.95, reason: 'the identifier' },
      { target: 'name', source: 'label', confidence: 0.85, reason: 'a label names the light' },
      { target: 'watts', source: 'watts', confidence: 0.99, reason: 'same name' },
      { target: 'contact', source: 'email', confidence: 0.8, reason: 'e-mail addresses' },
    ] }),
  );
  const suggested = await asAcme('POST', '/api/v1/backing-datasets/suggest-mappings', ask);
  t.equal(suggested.status, 200, JSON.stringify(suggested.body));
  t.equal(suggested.body.method, 'model');
  t.notOk(suggested.body.model_error);
  t.same(suggested.body.mappings, [
    { column: 'email', property: 'contact', score: 0.8, reasons: ['e-mail addresses'] },
    { column: 'id', property: 'light_id', score: 0.95, reasons: ['the identifier'] },
    { column: 'label', property: 'name', score: 0.85, reasons: ['a label names the light'] },
    { column: 'watts', property: 'watts', score: 0.99, reasons: ['same name'] },
  ], 'the model found label → name, which the rules miss');
  t.same(suggested.body.key_columns, ['id']);
  t.same(suggested.body.unmapped_properties, []);

  t.equal(llm.requests.length, 2, 'one repair round-trip');
  const described = JSON.parse(llm.requests[0].body.messages[1].content);
  t.same(described.source_columns.map((c: { name: string }) => c.name), ['id', 'label', 'watts', 'email'], 'the dataset\'s real columns');
  t.match(described.source_columns.find((c: { name: string }) => c.name === 'email'), { pattern: 'email', samples: ['ops1@acme.test'] }, 'with sample values');
  t.ok(described.source_columns.every((c: { samples: unknown[] }) => c.samples.length <= 5), 'a few samples per column');
  const targets = Object.fromEntries(described.targets.map((target: { name: string }) => [target.name, target]));
  t.same(Object.keys(targets).sort(), ['contact', 'light_id', 'name', 'watts'], 'the type\'s properties as targets');
  t.match(targets, { light_id: { required: true }, watts: { type: 'integer' }, contact: { format: 'email' } });
  const repair = llm.requests[1].body.messages.at(-1).content as string;
  t.match(repair, /mappings\[0\]\.source must be one of the source columns/, 'the non-existent column is named');
  t.match(repair, /mappings\[1\]\.target must be one of the target fields/, 'so is the non-existent property');

  const created = await asAcme('POST', '/api/v1/backing-datasets', {
    name: 'lights', ...ask, mappings: suggested.body.mappings.map((m: { column: string; property: string }) => ({ column: m.column, property: m.property })), key_columns: suggested.body.key_columns,
  });
  t.equal(created.status, 201, 'the model\'s suggestion registers as it is');
});

t.test('a model that names a missing column twice, or is down, leaves the rules to answer', async (t) => {
  const { llm, env } = await scripted(t);
  const { asAcme, asBeta, lake } = await ontologyPlatform(t, env, { workers: false });
  await writeLights(lake, lightRows(5));
  await asAcme('POST', '/api/v1/ontology/entity-types', streetLight);
  const wrong = reply({ mappings: [{ target: 'light_id', source: 'serial_number', confidence: 0.9 }] });
  llm.enqueue(wrong, wrong);
  const invalid = await asAcme('POST', '/api/v1/backing-datasets/suggest-mappings', ask);
  t.equal(invalid.status, 200, JSON.stringify(invalid.body));
  t.equal(invalid.body.method, 'rules');
  t.equal(invalid.body.model_error.code, 'MODEL_OUTPUT_INVALID');
  t.match(invalid.body.model_error.message, /source must be one of the source columns/);
  t.same(pairs(invalid.body), RULES, 'the deterministic answer');
  t.notMatch(JSON.stringify(invalid.body), /serial_number/, 'nothing of the invalid answer is suggested');
  t.equal(llm.requests.length, 2);

  llm.enqueue({ status: 500 });
  const down = await asAcme('POST', '/api/v1/backing-datasets/suggest-mappings', ask);
  t.equal(down.status, 200);
  t.match(down.body, { method: 'rules', model_error: { code: 'MODEL_UNAVAILABLE' } });
  t.same(pairs(down.body), RULES);
  t.notMatch(JSON.stringify(down.body), /sk-scripted-key|127\.0\.0\.1/, 'neither the key nor the address');

  const before = llm.requests.length;
  const foreign = await asBeta('POST', '/api/v1/backing-datasets/suggest-mappings', ask);
  t.equal(foreign.status, 403, 'the read rule first');
  t.equal(llm.requests.length, before, 'another tenant\'s dataset never reaches the model');
});

t.test('without a model the rules answer', async (t) => {
  const { llm } = await scripted(t);
  const { asAcme, lake } = await ontologyPlatform(t, { LLM_BASE_URL: '' }, { workers: false });
  await writeLights(lake, lightRows(5));
  await asAcme('POST', '/api/v1/ontology/entity-types', streetLight);
  const suggested = await asAcme('POST', '/api/v1/backing-datasets/suggest-mappings', ask);
  t.equal(suggested.status, 200);
  t.equal(suggested.body.method, 'rules');
  t.notOk(suggested.body.model_error);
  t.same(pairs(suggested.body), RULES);
  t.equal(llm.requests.length, 0);
});

t.test('without the pipelines-ai plugin the ontology works and the rules answer', async (t) => {
  const { llm, env } = await scripted(t);
  const tp = await startTestPlatform(t, {
    env,
    manifest: { plugins: [{ plugin: './plugins/tenancy' }, { plugin: './plugins/lakehouse' }, { plugin: './plugins/pipelines-apply' }, { plugin: './plugins/ontology' }] },
  });
  t.notOk((tp.platform.server.plugins as unknown as Record<string, unknown>)['pipelines-ai'], 'not loaded');
  const acme = await tenantWithAdmin(tp, 'acme');
  const as = (method: string, url: string, payload?: unknown) => tp.request({ method, url, token: acme.token, tenant: 'acme', payload });
  await writeLights(lakeOf(tp), lightRows(5));
  t.equal((await as('POST', '/api/v1/ontology/entity-types', streetLight)).status, 201);
  const suggested = await as('POST', '/api/v1/backing-datasets/suggest-mappings', ask);
  t.equal(suggested.status, 200, JSON.stringify(suggested.body));
  t.equal(suggested.body.method, 'rules');
  t.same(pairs(suggested.body), RULES);
  t.equal(llm.requests.length, 0, 'no model asked');
});

// The AI endpoints with a real OpenAI-compatible server on loopback (the
// scripted model): every model output is validated before it is returned —
// SQL by the transforms plugin's parser, DAGs by the pipelines plugin, names
// against the dataset's columns — with one repair round-trip naming the
// problems, then 502 MODEL_OUTPUT_INVALID. compose-pipeline runs as a job.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { aiPlatform, reply } from './helpers.ts';

t.test('generate-transform: invalid SQL gets one repair; still invalid is a clear 502', async (t) => {
  const { asAcme, llm, people } = await aiPlatform(t, { model: true });
  llm!.enqueue(
    reply({ name: 'emails', sql: `SELEC id FROM ${people}` }),
    reply(`Here it is:\n\`\`\`json\n${JSON.stringify({ name: 'emails', description: 'emails', sql: `SELECT id, email_address FROM ${people}` })}\n\`\`\``),
  );
  const generated = await asAcme.post('/ai/generate-transform', { prompt: 'the emails', inputs: [people] });
  t.equal(generated.status, 200, JSON.stringify(generated.body));
  t.match(generated.body, { source: 'model', draft: { name: 'emails', sql: `SELECT id, email_address FROM ${people}` }, analysis: { ok: true, inputs: [people] } });
  t.equal(llm!.requests.length, 2, 'one repair round-trip');
  const repair = llm!.requests[1].body.messages.at(-1).content as string;
  t.match(repair, /SQL_SYNTAX/, 'the repair names the parser\'s error');
  t.equal(llm!.requests[0].body.model, 'scripted-1');
  t.equal(llm!.requests[0].headers.authorization, 'Bearer sk-scripted-key', 'LLM_API_KEY as the bearer');

  llm!.enqueue(reply({ sql: `SELECT id FROM raw.beta.people` }), reply('not json at all'));
  const invalid = await asAcme.post('/ai/generate-transform', { prompt: 'read beta', inputs: [people] });
  t.equal(invalid.status, 502);
  t.equal(invalid.body.code, 'MODEL_OUTPUT_INVALID');
  t.match(invalid.body.message, /not a JSON object/);

  llm!.enqueue(reply({ sql: `SELECT id, email_address AS email FROM ${people}`, explanation: 'the column is email_address' }));
  const fixed = await asAcme.post('/ai/fix-ci-failure', { sql: `SELECT id, email FROM ${people}`, error: 'column "email" does not exist', inputs: [people] });
  t.equal(fixed.status, 200, JSON.stringify(fixed.body));
  t.match(fixed.body, { source: 'model', explanation: /email_address/, analysis: { ok: true } });

  llm!.enqueue({ status: 500 }, { status: 500 }, { status: 500 });
  const down = await asAcme.post('/ai/fix-ci-failure', { sql: 'SELECT 1 AS one', error: 'x' });
  t.equal(down.status, 502);
  t.equal(down.body.code, 'MODEL_UNAVAILABLE');
});

t.test('suggestions from the model are checked against the dataset\'s columns', async (t) => {
  const { asAcme, llm, people } = await aiPlatform(t, { model: true });
  llm!.enqueue(
    reply({ mappings: [{ target: 'email', source: 'e_mail_does_not_exist', confidence: 0.9 }] }),
    reply({ mappings: [{ target: 'email', source: 'email_address', confidence: 0.95, reason: 'same meaning' }] }),
  );
  const mapped = await asAcme.post('/ai/suggest-field-mappings', { source_dataset: people, target_fields: [{ name: 'email' }, { name: 'age' }] });
  t.equal(mapped.status, 200, JSON.stringify(mapped.body));
  t.same(mapped.body.mappings, [{ target: 'email', source: 'email_address', confidence: 0.95, reasons: ['same meaning'] }]);
  t.same(mapped.body.unmapped_targets, ['age']);
  t.match(llm!.requests[1].body.messages.at(-1).content, /mappings\[0\]\.source must be one of the source columns/);

  llm!.enqueue(reply({ fields: [{ name: 'email', type: 'text', source_column: 'email_address', required: true }], primary_key: ['email'] }));
  const schema = await asAcme.post('/ai/suggest-target-schema', { dataset_id: people });
  t.match(schema.body, { source: 'model', fields: [{ name: 'email', source_column: 'email_address' }], primary_key: ['email'] });
  t.notMatch(JSON.stringify(llm!.requests.at(-1)!.body), /beta/, 'nothing of another tenant reaches the model');

  const paramsSchema = { type: 'object', required: ['key_column'], properties: { key_column: { type: 'string' }, limit: { type: 'integer' } } };
  llm!.enqueue(reply({ params: { key_column: 'customer_number', limit: 'ten' } }), reply({ params: { key_column: 'id', limit: 10 }, reasons: { key_column: 'unique' } }));
  const params = await asAcme.post('/ai/suggest-pattern-params', { dataset_id: people, params_schema: paramsSchema });
  t.equal(params.status, 200, JSON.stringify(params.body));
  t.match(params.body, { source: 'model', params: { key_column: 'id', limit: 10 }, valid: true, unfilled: [] });
  const problems = llm!.requests.at(-1)!.body.messages.at(-1).content as string;
  t.match(problems, /params\.key_column must name columns of the dataset/);
  t.match(problems, /\/limit must be integer/);
});

t.test('compose-pipeline: 202, a job, a DAG validated by the pipelines plugin', async (t) => {
  const { asAcme, asBeta, llm, people } = await aiPlatform(t, { model: true });
  const steps = [
    { id: 'clean', sql: `SELECT id, email_address FROM ${people} WHERE email_address IS NOT NULL`, output: 'people_clean', inputs: [people] },
    { id: 'count', sql: 'SELECT count(id) AS n FROM derived.acme.people_clean', output: 'people_count', inputs: ['clean'] },
  ];
  const cyclic = [{ ...steps[0], inputs: [people, 'count'] }, steps[1]];
  llm!.enqueue(reply({ name: 'people_flow', steps: cyclic }), reply({ name: 'people_flow', description: 'clean then count', steps }));
  const started = await asAcme.post('/ai/compose-pipeline', { prompt: 'clean people then count them', inputs: [people] });
  t.equal(started.status, 202, JSON.stringify(started.body));
  t.match(started.body, { status: 'queued' });
  const id = started.body.execution_id;
  const done = await until(async () => {
    const status = await asAcme.get(`/ai/compose-pipeline/${id}/status`);
    return ['succeeded', 'failed'].includes(status.body.status) && status.body;
  }, 'the composition finishes');
  t.equal(done.status, 'succeeded', JSON.stringify(done.error));
  t.match(done.result, { pipeline: { name: 'people_flow', steps: [{ id: 'clean' }, { id: 'count' }] }, validation: { valid: true, order: ['clean', 'count'] } });
  t.match(llm!.requests[1].body.messages.at(-1).content, /DAG_CYCLE/, 'the cycle went back to the model');
  t.equal((await asBeta.get(`/ai/compose-pipeline/${id}/status`)).status, 404, 'another tenant does not see it');

  llm!.enqueue(reply({ name: 'bad', steps: cyclic }), reply({ name: 'bad', steps: cyclic }));
  const failing = await asAcme.post('/ai/compose-pipeline', { prompt: 'loop', inputs: [people] });
  const failed = await until(async () => {
    const status = await asAcme.get(`/ai/compose-pipeline/${failing.body.execution_id}/status`);
    return ['succeeded', 'failed'].includes(status.body.status) && status.body;
  }, 'the failing composition finishes');
  t.match(failed, { status: 'failed', error: { code: 'MODEL_OUTPUT_INVALID', message: /DAG_CYCLE/ }, result: null });
});

t.test('the model is called through the outbound guard: a loopback model needs PIPELINES_AI_ALLOW_PRIVATE_NETWORKS', async (t) => {
  const { asAcme, llm, people, tp } = await aiPlatform(t, { model: true, allowPrivate: false });
  const refused = await asAcme.post('/ai/generate-transform', { prompt: 'emails', inputs: [people] });
  t.equal(refused.status, 502);
  t.equal(refused.body.code, 'MODEL_UNAVAILABLE');
  t.equal(llm!.requests.length, 0, 'nothing reached the loopback server');
  t.notMatch(JSON.stringify(refused.body), /sk-scripted-key|127\.0\.0\.1/);
  t.notMatch(tp.logs.join('\n'), /sk-scripted-key/);
});

// compose-pipeline survives a dead worker: a child process running the
// platform works the job and is SIGKILLed while the model call is in flight.
// The job's heartbeat stops, pg-boss retries it in another process, the retry
// takes the execution over and it succeeds; with no retries left the dead
// letter fails it with COMPOSE_ABORTED. Either way it ends, once.
// Runs in its own process: it kills and restarts platform processes; a leak would hold a shared one.
import { spawn } from 'node:child_process';
import t from 'tap';
import { ROOT_DIR } from '../../../core/paths.ts';
import { ScriptedLlm } from '../../../test/fixtures/chat/scripted-llm.ts';
import { startTestPlatform, tenantWithAdmin, until } from 'agent-platform/sdk/testing';
import { peopleOf, reply } from './helpers.ts';

type Tap = Parameters<typeof startTestPlatform>[0];

async function killedMidCall(t: Tap, retryLimit: string) {
  const llm = await new ScriptedLlm().start();
  t.teardown(() => llm.stop());
  const env: Record<string, string> = {
    PIPELINES_AI_ALLOW_PRIVATE_NETWORKS: 'true', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'scripted-1', LLM_API_KEY: 'sk-scripted-key',
    PIPELINES_AI_COMPOSE_RETRY_LIMIT: retryLimit,
  };
  const tp = await startTestPlatform(t, { env });
  const acme = await tenantWithAdmin(tp, 'acme');
  const people = await peopleOf(tp.platform.server.plugins.lakehouse.api, 'acme');
  const steps = [{ id: 'clean', sql: `SELECT id, email_address FROM ${people} WHERE email_address IS NOT NULL`, output: 'people_clean', inputs: [people] }];
  // The first model call hangs until the test lets it go (after its caller is dead); the retry's gets an answer.
  let release = () => {};
  llm.enqueue({ ...reply({ name: 'late', steps }), gate: { pauseAt: 0, until: new Promise<void>((resolve) => { release = resolve; }) } }, reply({ name: 'people_flow', steps }));
  t.teardown(() => release());

  const child = spawn(process.execPath, ['core/cli/bin.ts', 'serve'], {
    cwd: ROOT_DIR, env: { ...tp.env, PORT: '0', LOG_LEVEL: 'silent', JOBS_POLL_INTERVAL_MS: '100' }, stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const as = (platform: typeof tp) => ({
    post: (path: string, payload: unknown) => platform.request({ method: 'POST', url: `/api/v1${path}`, token: acme.token, tenant: 'acme', payload }),
    get: (path: string) => platform.request({ url: `/api/v1${path}`, token: acme.token, tenant: 'acme' }),
  });
  const started = await as(tp).post('/ai/compose-pipeline', { prompt: 'clean people', inputs: [people] });
  if (started.status !== 202) throw new Error(JSON.stringify(started.body));
  const id = started.body.execution_id as string;
  await until(async () => (await as(tp).get(`/ai/compose-pipeline/${id}/status`)).body.status === 'running' && llm.requests.length === 1, 'the child to call the model');
  child.kill('SIGKILL');
  await exited;
  release();

  const next = await startTestPlatform(t, { databaseUrl: tp.databaseUrl, env: { ...tp.env, JOBS_SUPERVISE_INTERVAL_SECONDS: '1' } });
  await next.platform.start();
  const ended = await until(async () => {
    const status = (await as(next).get(`/ai/compose-pipeline/${id}/status`)).body;
    return ['succeeded', 'failed'].includes(status.status) && status;
  }, 'the execution to end in the new process', 120_000);
  return { ended, llm };
}

t.test('a compose job whose worker dies is retried elsewhere and the execution succeeds', async (t) => {
  const { ended, llm } = await killedMidCall(t, '2');
  t.equal(ended.status, 'succeeded', JSON.stringify(ended.error));
  t.match(ended.result, { pipeline: { name: 'people_flow' }, validation: { valid: true, order: ['clean'] } }, 'the retry\'s answer');
  t.equal(llm.requests.length, 2, 'the model was asked again by the retry');
});

t.test('a compose job out of attempts fails the execution with a clear error (dead letter)', async (t) => {
  const { ended, llm } = await killedMidCall(t, '0');
  t.match(ended, { status: 'failed', result: null, error: { code: 'COMPOSE_ABORTED', message: /ran out of attempts/ } });
  t.equal(llm.requests.length, 1, 'not asked again');
});

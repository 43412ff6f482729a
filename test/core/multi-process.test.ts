// Runs in its own process: it starts three platform processes.
// Three `platform serve` processes on one PostgreSQL, as replicas behind a
// load balancer: every event is dispatched once and starts one workflow
// execution, a schedule's occurrence fires once; a chat answer dropped on one
// process is picked up on another; an origin removed from an embed
// configuration through one process is refused by the others (with a cache
// TTL of an hour: only the invalidation can tell them); a rate limit holds
// across the three (requests sent round-robin, the one past the limit is 429
// on whichever process it reaches). One in-process platform, never started,
// sets things up through its API and reads the database.
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT_DIR } from '../../core/paths.ts';
import { startTestPlatform, tenantWithAdmin, until, type Tap, type TestPlatform } from '../harness.ts';
import { freePort } from '../embedded-serve.ts';
import { ScriptedLlm, textChunks } from '../fixtures/chat/scripted-llm.ts';

if (!process.env.TEST_DATABASE_URL) {
  t.comment('PostgreSQL only (TEST_DATABASE_URL): the embedded database is one process');
  process.exit(0);
}

const ORIGIN = 'https://shop.example';
const FORMS_LIMIT = 6;
const EVENTS = 30;
const ANSWER = 'An answer long enough to be dropped half way through and picked up by another process.';

interface Replica {
  base: string;
  child: ChildProcess;
  output: () => string;
}

async function startReplica(t: Tap, env: NodeJS.ProcessEnv): Promise<Replica> {
  const port = await freePort();
  const child = spawn(process.execPath, ['core/cli/bin.ts', 'serve'], {
    cwd: ROOT_DIR, env: { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(killer);
  });
  const base = `http://127.0.0.1:${port}`;
  await until(async () => {
    if (child.exitCode !== null) throw new Error(`serve exited before it was ready:\n${output}`);
    return fetch(`${base}/health`).then((res) => res.ok, () => false);
  }, `replica on port ${port} to answer /health`, 120_000);
  return { base, child, output: () => output };
}

interface Frame {
  seq: number;
  type: string;
  delta?: string;
  status?: string;
}

/** An SSE request to one replica, its frames collected as they come; drop() closes it. */
function stream(url: string, token: string, init: { method: string; body?: unknown }) {
  const controller = new AbortController();
  const frames: Frame[] = [];
  const done = (async () => {
    const response = await fetch(url, {
      method: init.method, signal: controller.signal,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (response.status !== 200) throw new Error(`stream ${url}: ${response.status} ${await response.text()}`);
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(piece, { stream: true });
        let at: number;
        while ((at = buffer.indexOf('\n\n')) !== -1) {
          for (const line of buffer.slice(0, at).split('\n')) if (line.startsWith('data: ')) frames.push(JSON.parse(line.slice(6)));
          buffer = buffer.slice(at + 2);
        }
      }
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    }
  })();
  done.catch(() => {});
  return { frames, done, drop: () => controller.abort() };
}

const textOf = (frames: Frame[]) => frames.filter((f) => f.type === 'text').map((f) => f.delta).join('');

async function api(tp: TestPlatform, method: string, url: string, token: string, payload?: unknown) {
  const answer = await tp.request({ method, url, token, payload });
  if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as any;
}

t.test('three platform processes on one database', async (t) => {
  const llm = await new ScriptedLlm().start();
  t.teardown(() => llm.stop());
  const settings = {
    LLM_BASE_URL: llm.baseUrl,
    FORMS_PUBLIC_RATE_LIMIT: String(FORMS_LIMIT),
    EMBED_CONFIG_CACHE_TTL_SECONDS: '3600',
  };
  const tp = await startTestPlatform(t, { env: settings });
  const { token } = await tenantWithAdmin(tp, 'acme');
  const sql = (text: string, values: unknown[] = []) => tp.platform.core.pool.query(text, values).then((result) => result.rows);

  // A workflow started by every order event, and one started by a schedule due at the next minute.
  const workflow = (name: string) => api(tp, 'POST', '/api/admin/workflows', token, {
    name, description: 'logs', steps: [{ id: 'log', type: 'ACTION', handler: 'log', arguments: { message: 'started' } }],
  });
  await workflow('record');
  await workflow('tick');
  await api(tp, 'POST', '/api/admin/triggers', token, {
    name: 'orders', event_type: 'order.created', target_name: 'record', input_mapping: { n: '{{event.data.n}}' },
  });
  await api(tp, 'POST', '/api/admin/triggers', token, {
    name: 'every-minute', target_name: 'tick', schedule_config: { cron: '* * * * *', timezone: 'UTC' },
  });
  // An embeddable client, allowed on one origin.
  const client = await api(tp, 'POST', '/api/admin/clients', token, { name: 'shop', client_key: 'ck_acme_shop' });
  await api(tp, 'PUT', `/api/admin/clients/${client.id}/embed`, token, { enabled: true, allowed_origins: [ORIGIN, 'https://other.example'] });

  const replicas = await Promise.all([0, 1, 2].map(() => startReplica(t, tp.env)));
  const [a, b, c] = replicas as [Replica, Replica, Replica];

  await t.test('a rate limit holds across the three: the request past it is 429 wherever it lands', async (t) => {
    const statuses: number[] = [];
    for (let i = 0; i <= FORMS_LIMIT; i++) {
      // Anonymous: the address spends a token before anything else is read (then 400: no tenant named).
      const response = await fetch(`${replicas[i % 3]!.base}/api/forms/files`, { method: 'POST', headers: { 'content-length': '0' } });
      statuses.push(response.status);
      if (i === FORMS_LIMIT) t.ok(response.headers.get('retry-after'), 'with Retry-After');
    }
    t.ok(statuses.slice(0, FORMS_LIMIT).every((status) => status !== 429), `the first ${FORMS_LIMIT} are admitted (${statuses})`);
    t.equal(statuses[FORMS_LIMIT], 429, `request ${FORMS_LIMIT + 1}, on process ${FORMS_LIMIT % 3 + 1}, is refused`);
  });

  await t.test('an origin removed through one process is refused by every process', async (t) => {
    const manifest = (replica: Replica, origin: string) =>
      fetch(`${replica.base}/api/embed/manifest/ck_acme_shop`, { headers: { origin } }).then((res) => res.status);
    t.same(await Promise.all(replicas.map((replica) => manifest(replica, ORIGIN))), [200, 200, 200], 'each process has the client cached');
    const changed = await fetch(`${a.base}/api/admin/clients/${client.id}/embed`, {
      method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: true, allowed_origins: ['https://other.example'] }),
    });
    t.equal(changed.status, 200);
    const started = performance.now();
    await until(async () => (await Promise.all([b, c].map((replica) => manifest(replica, ORIGIN)))).every((status) => status === 403),
      'the other processes to refuse the removed origin');
    t.comment(`refused by the other processes ${Math.round(performance.now() - started)} ms after the change (their cache TTL: an hour)`);
    t.equal(await manifest(a, ORIGIN), 403, 'and by the one that made the change');
    t.equal(await manifest(c, 'https://other.example'), 200, 'the origin still allowed is still served');
  });

  await t.test('a chat answer dropped on one process is picked up on another', async (t) => {
    const session = (await api(tp, 'POST', '/api/sessions', token, {})).id as string;
    const gate = Promise.withResolvers<void>();
    llm.enqueue({ chunks: textChunks(ANSWER, 3), delayMs: 5, gate: { pauseAt: 6, until: gate.promise } });
    const first = stream(`${a.base}/api/chat/${session}`, token, { method: 'POST', body: { content: 'go' } });
    await until(async () => first.frames.filter((f) => f.type === 'text').length >= 4, 'some text from the first process');
    first.drop();
    await first.done;
    gate.resolve();
    const seen = first.frames.at(-1)!.seq;
    t.notOk(first.frames.some((f) => f.type === 'done'), 'dropped before the end');
    const resumed = stream(`${b.base}/api/chat/${session}/stream?after=${seen}`, token, { method: 'GET' });
    await resumed.done;
    const all = [...first.frames, ...resumed.frames];
    t.same(all.map((f) => f.seq), all.map((_, i) => i + 1), 'no frame twice, none missing');
    t.equal(textOf(all), ANSWER);
    t.equal(all.at(-1)!.status, 'completed');
  });

  await t.test('each event is dispatched once and starts one execution; a schedule occurrence fires once', async (t) => {
    const { core } = tp.platform;
    for (let n = 0; n < EVENTS; n += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, i) =>
        core.withTenant('acme', (trx) => core.events.emit(trx, 'acme', { type: 'order.created', source: '/shop', data: { n: n + i } }))));
    }
    await until(async () => (await sql(`SELECT count(*)::int AS n FROM workflow_executions WHERE workflow_name = 'record' AND status = 'completed'`))[0].n === EVENTS,
      'every order to start a completed execution', 60_000);
    const dispatches = await sql(`SELECT event_seq, count(*)::int AS n FROM trigger_dispatches WHERE trigger_name = 'orders' GROUP BY 1`);
    t.equal(dispatches.length, EVENTS, 'every event dispatched');
    t.ok(dispatches.every((row) => row.n === 1), 'none twice');
    const executions = await sql(`SELECT inputs->>'n' AS n, count(*)::int AS c FROM workflow_executions WHERE workflow_name = 'record' GROUP BY 1`);
    t.equal(executions.length, EVENTS, 'one execution per event');
    t.ok(executions.every((row) => row.c === 1), 'no event started two');

    // The timer of the next minute: one of the three processes' workers takes it.
    await until(async () => (await sql(`SELECT count(*)::int AS n FROM workflow_executions WHERE workflow_name = 'tick'`))[0].n >= 1,
      'the schedule to fire (at the next minute)', 90_000);
    const fired = await sql(`SELECT data->>'scheduled_time' AS at, count(*)::int AS n FROM events WHERE tenant_id = 'acme' AND type = 'schedule.fired' GROUP BY 1`);
    t.ok(fired.length >= 1, 'schedule.fired emitted');
    t.ok(fired.every((row) => row.n === 1), 'each occurrence fired once');
    const ticks = await sql(`SELECT count(*)::int AS n FROM workflow_executions WHERE workflow_name = 'tick'`);
    t.equal(ticks[0].n, fired.length, 'one execution per occurrence');
  });

  for (const replica of replicas) t.equal(replica.child.exitCode, null, `still running${replica.child.exitCode === null ? '' : `:\n${replica.output()}`}`);
});

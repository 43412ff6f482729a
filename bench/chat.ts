// Chat benchmark: time to first byte and per-token overhead of the platform's
// SSE relay over the model server's own stream, measured in the same run, at
// several numbers of concurrent streaming sessions (targets: first byte p50
// within the model's own + 100 ms at 100 streams and + 300 ms at 500; steady
// per-token overhead p99 ≤ 10 ms at 500). Run with `npm run bench:chat` (a
// throwaway Postgres is started).
//
// Three processes: the platform (this one: tenancy + chat, the real turn
// runner, frames persisted in batches), the model server (bench/lib/chat-llm.ts:
// TOKENS tokens INTERVAL_MS apart, each token the time it was written) and the
// SSE clients (bench/lib/chat-load.ts). Baseline: the same clients reading the
// model server directly. Token latency = arrival − write time; the overhead
// at a percentile is relay − baseline at that percentile. TTFB is the time to
// the response head; TTFT the time to the first token, which for the relay
// includes the turn's start (session check, user message, turn row, events)
// and the model request. "Steady" figures count only the tokens that arrived
// while all the level's streams were open at once (after the last stream's
// first token), i.e. the cost of holding N concurrent streams, without the
// start-up burst of N turns. "CPU µs/token" is the platform process's CPU
// time (process.cpuUsage, user + system, all its threads: the event loop, the
// garbage collector, libuv) over the level's relay run, divided by the tokens
// relayed: the figure to compare revisions with, as it barely moves with the
// host's noise where latencies do (it includes the turns' start and end, and
// the profiler's own cost in the profiled level).
//
// Knobs: BENCH_STREAMS (levels), BENCH_TOKENS, BENCH_INTERVAL_MS;
// BENCH_CPU_PROFILE=<file> writes a CPU profile of the platform process during
// the relay run of level BENCH_PROFILE_LEVEL (default the largest); with
// pg_stat_statements preloaded, the statements that took the database's time
// in that run are printed. BENCH_HEAP_PROFILE=<file> writes a sampling heap
// profile of what outlived the young generation in that run (what the
// scavenges copy). BENCH_LOAD_CPU=<cpu> pins the clients and the model
// server to that CPU and the platform to BENCH_PLATFORM_CPU (default: any other).
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { createPlatform } from '../core/boot.ts';
import { loadConfig } from '../core/config.ts';
import { cpuProfiled, statementStats, survivorsProfiled } from './lib/profile.ts';

const LEVELS = (process.env.BENCH_STREAMS ?? '1,100,500').split(',').map(Number);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 200);
const INTERVAL_MS = Number(process.env.BENCH_INTERVAL_MS ?? 50);
const MANIFEST = fileURLToPath(new URL('./chat.yaml', import.meta.url));
const lib = (name: string) => fileURLToPath(new URL(`./lib/${name}`, import.meta.url));
const PROFILE = process.env.BENCH_CPU_PROFILE;
const HEAP_PROFILE = process.env.BENCH_HEAP_PROFILE;
const PROFILE_LEVEL = Number(process.env.BENCH_PROFILE_LEVEL ?? Math.max(...LEVELS));
const LOAD_CPU = process.env.BENCH_LOAD_CPU;

/** A child process (with an IPC channel), pinned to LOAD_CPU when it is set. */
function child(script: string, env: NodeJS.ProcessEnv = process.env): ChildProcess {
  if (LOAD_CPU === undefined) return fork(script, { env });
  return spawn('taskset', ['-c', LOAD_CPU, process.execPath, script], { env, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
}

/** Pins this process (the platform) away from the load generator's CPU. */
function pinPlatform(): string | undefined {
  if (LOAD_CPU === undefined) return undefined;
  const cpus = process.env.BENCH_PLATFORM_CPU ?? os.cpus().map((_, i) => i).filter((i) => String(i) !== LOAD_CPU).join(',');
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
  return cpus;
}

interface LoadResult { ttfb: number[]; ttft: number[]; token: number[]; steady: number[]; errors: number; tokens: number; seconds: number }

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function once<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve) => child.once('message', (message) => resolve(message as T)));
}

const f = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(2));

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: run through `npm run bench:chat`');
  const pinned = pinPlatform();
  const llm = child(lib('chat-llm.ts'), { ...process.env, TOKENS: String(TOKENS), INTERVAL_MS: String(INTERVAL_MS) });
  const { port } = await once<{ port: number }>(llm);
  const config = loadConfig({
    ...process.env, DATABASE_URL: databaseUrl, PLATFORM_MANIFEST: MANIFEST, LOG_LEVEL: 'silent',
    ADMIN_TOKEN: `adm_${randomBytes(16).toString('hex')}`, PLATFORM_MASTER_KEY: randomBytes(32).toString('hex'),
    SERVICE_JWT_SECRET: randomBytes(32).toString('hex'), LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, LLM_MODEL: 'bench',
    // One tenant holds every level's streams at once: lift the per-tenant limits above the largest level.
    CHAT_MAX_CONCURRENT_TURNS_PER_TENANT: String(Math.max(...LEVELS) + 10), CHAT_MAX_CONCURRENT_STREAMS_PER_TENANT: String(Math.max(...LEVELS) + 10),
  });
  const platform = await createPlatform({ config, port: 0, host: '127.0.0.1', announceAdminToken: () => {} });
  await platform.start();
  const admin = { authorization: `Bearer ${config.adminToken}` };
  const inject = async (method: string, url: string, payload?: unknown, headers: Record<string, string> = admin) => {
    const r = await platform.server.inject({ method, url, payload: payload as never, headers });
    if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.payload}`);
    return JSON.parse(r.payload);
  };
  await inject('POST', '/api/admin/tenants', { id: 'bench' });
  await inject('POST', '/api/admin/users', { sub: 'bench-user', display_name: 'bench', organizations: ['bench'], roles: [] });
  const token = (await inject('POST', '/api/admin/users/bench-user/tokens')).access_token as string;
  await inject('POST', '/api/admin/clients', { name: 'web' }, { ...admin, 'x-tenant-id': 'bench' });
  const user = { authorization: `Bearer ${token}` };
  const max = Math.max(...LEVELS);
  const sessions: string[] = [];
  for (let i = 0; i < max; i++) sessions.push((await inject('POST', '/api/sessions', {}, user)).id);

  const load = child(lib('chat-load.ts'));
  const stats = new pg.Client({ connectionString: databaseUrl });
  await stats.connect();
  let topStatements: Awaited<ReturnType<NonNullable<Awaited<ReturnType<typeof statementStats>>>>> | undefined;
  const run = async (mode: 'direct' | 'relay', n: number): Promise<LoadResult> => {
    const job = mode === 'direct'
      ? { mode, url: `http://127.0.0.1:${port}`, headers: {}, paths: Array(n).fill('/v1/chat/completions'),
        body: Array(n).fill(JSON.stringify({ model: 'bench', stream: true, messages: [{ role: 'user', content: 'go' }] })) }
      : { mode, url: platform.server.info.uri, headers: user, paths: sessions.slice(0, n).map((id) => `/api/chat/${id}`),
        body: Array(n).fill(JSON.stringify({ content: 'go' })) };
    load.send(job);
    return once<LoadResult>(load);
  };

  console.log(`chat relay benchmark — node ${process.version}, ${os.cpus().length} cores, ${TOKENS} tokens/stream ${INTERVAL_MS} ms apart (${1000 / INTERVAL_MS} tokens/s per stream)`
    + (pinned === undefined ? '' : `; clients and model server on CPU ${LOAD_CPU}, platform on CPU ${pinned}`));
  await run('direct', 5);
  await run('relay', 5); // warm-up
  const rows: string[][] = [];
  for (const n of LEVELS) {
    const direct = await run('direct', n);
    const rssBefore = process.memoryUsage().rss;
    // How long the platform's event loop was held up (what every token waits behind).
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const measured = n === PROFILE_LEVEL;
    const statements = measured ? await statementStats(stats) : undefined;
    const cpuBefore = process.cpuUsage();
    const relayRun = () => run('relay', n);
    const relay = measured ? await survivorsProfiled(HEAP_PROFILE, () => cpuProfiled(PROFILE, relayRun)) : await relayRun();
    const cpu = process.cpuUsage(cpuBefore);
    loop.disable();
    if (statements) topStatements = await statements();
    const rss = process.memoryUsage().rss;
    const expected = n * TOKENS;
    rows.push([
      String(n),
      `${relay.tokens}/${expected}`, String(relay.errors + direct.errors),
      f(percentile(direct.ttfb, 50)), f(percentile(relay.ttfb, 50)), f(percentile(relay.ttfb, 99)),
      f(percentile(direct.ttft, 50)), f(percentile(relay.ttft, 50)), f(percentile(relay.ttft, 99)),
      f(percentile(direct.token, 50)), f(percentile(direct.token, 99)),
      f(percentile(relay.token, 50)), f(percentile(relay.token, 99)),
      f(percentile(relay.token, 50) - percentile(direct.token, 50)), f(percentile(relay.token, 99) - percentile(direct.token, 99)),
      String(relay.steady.length),
      f(percentile(relay.steady, 50) - percentile(direct.steady, 50)), f(percentile(relay.steady, 99) - percentile(direct.steady, 99)),
      `${(loop.percentile(99) / 1e6).toFixed(1)} / ${(loop.max / 1e6).toFixed(1)}`,
      `${Math.round(rss / 1_048_576)} (+${Math.round((rss - rssBefore) / 1_048_576)})`,
      relay.tokens === 0 ? '-' : ((cpu.user + cpu.system) / relay.tokens).toFixed(1),
    ]);
    // Let the last turns' end transactions settle before the next level.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const header = ['streams', 'tokens', 'errors', 'ttfb direct p50', 'ttfb relay p50', 'ttfb relay p99', 'ttft direct p50', 'ttft relay p50', 'ttft relay p99',
    'token direct p50', 'token direct p99', 'token relay p50', 'token relay p99', 'overhead p50', 'overhead p99',
    'steady tokens', 'steady overhead p50', 'steady overhead p99', 'loop delay p99 / max', 'rss MB', 'CPU µs/token'];
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log('(times in ms; overhead = relay − direct at the same percentile; steady = tokens that arrived while every stream of the level was open;'
    + ' CPU µs/token = the platform process\'s CPU time, user + system, over the relay run / tokens relayed)');
  console.log(`load average at the end: ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`);
  if (topStatements) {
    console.log(`pg_stat_statements during the ${PROFILE_LEVEL}-stream relay run (calls, total ms, mean ms, % of database time):`);
    for (const row of topStatements) console.log(`${String(row.calls).padStart(8)} ${String(row.ms).padStart(7)} ${String(row.mean_ms).padStart(8)} ${String(row.pct).padStart(3)}%  ${row.query}`);
  }
  await stats.end();
  load.disconnect();
  llm.disconnect();
  await platform.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

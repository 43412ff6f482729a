// bench:embedded-hostile — the embedded default (`npm start` without
// DATABASE_URL) while a member with no role keeps sending hostile SQL to
// review-sql (constant expressions PostgreSQL folds while planning, seconds of
// PGlite each). Measured from this process against the server (a child
// process): /health (queries nothing) and another tenant's database-backed GET,
// first on the idle server (the baseline), then while the hostile statements
// run. Prints p50/p99/max of both phases and the ratio of the p99s.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT_DIR } from '../core/paths.ts';

const PHASE_MS = Number(process.env.PHASE_MS ?? 20_000);
const HOSTILE_SQL = `SELECT length(regexp_replace(repeat('ab', 20000000), 'b', 'cc', 'g')) AS n1,
  length(regexp_replace(repeat('ab', 20000001), 'b', 'cc', 'g')) AS n2,
  length(regexp_replace(repeat('ab', 20000002), 'b', 'cc', 'g')) AS n3`;

const port = await new Promise<number>((resolve) => {
  const server = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address() as net.AddressInfo;
    server.close(() => resolve(port));
  });
});
const base = `http://127.0.0.1:${port}`;
const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-hostile-'));
const env: NodeJS.ProcessEnv = { ...process.env, PLATFORM_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' };
for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'PLATFORM_MASTER_KEY', 'ADMIN_TOKEN', 'PLATFORM_MANIFEST']) delete env[name];
const child = spawn(process.execPath, [path.join(ROOT_DIR, 'core/cli/bin.ts'), 'serve'], { cwd: ROOT_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
child.stdout.on('data', (chunk) => (output += chunk));
child.stderr.on('data', (chunk) => (output += chunk));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function request(method: string, url: string, token: string, body?: unknown, tenant?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (tenant) headers['x-tenant-id'] = tenant;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as any };
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN };
}

/** Probes a URL back to back (with a pause) until the deadline; the latencies in ms. */
async function probe(url: string, token: string | undefined, pauseMs: number, until: number): Promise<number[]> {
  const latencies: number[] = [];
  while (Date.now() < until) {
    const started = performance.now();
    const res = await fetch(`${base}${url}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    await sleep(pauseMs);
  }
  return latencies;
}

try {
  for (let i = 0; !/Generated super-admin token/.test(output); i++) {
    if (child.exitCode !== null || i > 1200) throw new Error(`the server did not start:\n${output}`);
    await sleep(100);
  }
  const admin = /(adm_[0-9a-f]+)/.exec(output)![1]!;
  while (!(await fetch(`${base}/health`).then((r) => r.ok, () => false))) await sleep(100);
  for (const id of ['acme', 'other']) await request('POST', '/api/admin/tenants', admin, { id });
  await request('POST', '/api/admin/users', admin, { sub: 'mo', display_name: 'Mo', organizations: ['acme'], roles: [] });
  await request('POST', '/api/admin/users', admin, { sub: 'oz', display_name: 'Oz', organizations: ['other'], roles: ['admin'] });
  const member = (await request('POST', '/api/admin/users/mo/tokens', admin)).body.access_token as string;
  const otherAdmin = (await request('POST', '/api/admin/users/oz/tokens', admin)).body.access_token as string;

  const measure = async (hostile: boolean) => {
    const until = Date.now() + PHASE_MS;
    const outcomes: string[] = [];
    const attacker = hostile
      ? (async () => {
          while (Date.now() < until) {
            const started = performance.now();
            const res = await request('POST', '/api/v1/ai/review-sql', member, { sql: HOSTILE_SQL }, 'acme');
            outcomes.push(`${res.status} ${res.body.code ?? ''} ${Math.round(performance.now() - started)} ms`.trim());
          }
        })()
      : Promise.resolve();
    const [health, other] = await Promise.all([
      probe('/health', undefined, 20, until),
      probe('/api/admin/clients', otherAdmin, 100, until),
      attacker,
    ]);
    return { health: summary(health), other: summary(other), outcomes };
  };

  const idle = await measure(false);
  const hostile = await measure(true);
  const row = (name: string, s: ReturnType<typeof summary>) =>
    `| ${name} | ${s.n} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.max.toFixed(1)} |`;
  console.log(`\nbench:embedded-hostile (${PHASE_MS / 1000} s per phase)\n`);
  console.log('| Probe | n | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|');
  console.log(row('/health, idle (baseline)', idle.health));
  console.log(row('/health, hostile SQL running', hostile.health));
  console.log(row("another tenant's GET, idle (baseline)", idle.other));
  console.log(row("another tenant's GET, hostile SQL running", hostile.other));
  console.log(`\n/health p99 hostile / idle: ${(hostile.health.p99 / idle.health.p99).toFixed(2)}`);
  console.log(`another tenant's GET p99 hostile / idle: ${(hostile.other.p99 / idle.other.p99).toFixed(2)}`);
  const counts = new Map<string, number>();
  for (const outcome of hostile.outcomes) counts.set(outcome.replace(/ \d+ ms$/, ''), (counts.get(outcome.replace(/ \d+ ms$/, '')) ?? 0) + 1);
  console.log(`hostile review-sql answers: ${[...counts].map(([k, n]) => `${n} × ${k}`).join(', ')}; durations: ${hostile.outcomes.map((o) => /(\d+) ms$/.exec(o)?.[1]).join(', ')} ms`);
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
}

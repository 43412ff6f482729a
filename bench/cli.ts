// The `platform` command's start-up, run as child processes with the compile
// cache warm: `--help`; commands on the database (PostgreSQL from
// DATABASE_URL): `tenants list`, `migrate`; the reports that read every
// plugin: `plugins`, `config`; an HTTP client of the server: `search`
// (answered by a stand-in server on loopback); a command that needs neither:
// `webhooks sign`. The baseline, measured in the same run: the
// same commands of another revision (BENCH_CLI_BASELINE, a git ref, default
// HEAD~1 of the changes it records: extracted with `git archive` into a
// temporary folder sharing this checkout's node_modules), and a bare `node`.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT_DIR } from '../core/paths.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const env: NodeJS.ProcessEnv = { ...process.env, NODE_COMPILE_CACHE: path.join(os.tmpdir(), 'platform-bench-cli-cache'), LOG_LEVEL: 'silent' };
env.PLATFORM_MASTER_KEY ??= '11'.repeat(32);

function timed(cwd: string, args: string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8' });
  const elapsed = performance.now() - started;
  if (run.status !== 0) throw new Error(`${args.join(' ')} in ${cwd}: exit ${run.status}: ${run.stderr}`);
  return elapsed;
}

function median(cwd: string, args: string[]): number {
  timed(cwd, args); // fills the compile cache
  const times = Array.from({ length: RUNS }, () => timed(cwd, args)).sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

// The stand-in server `search` calls: a child process (spawnSync blocks this one's event loop).
const STAND_IN = `const s = require('node:http').createServer((q, r) => { r.setHeader('content-type', 'application/json'); r.end('{"results":[]}'); });
s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;

const ref = process.env.BENCH_CLI_BASELINE ?? 'HEAD~1';
const baseline = mkdtempSync(path.join(os.tmpdir(), 'platform-bench-cli-'));
const standIn = spawn(process.execPath, ['-e', STAND_IN], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const port = await new Promise<string>((resolve) => standIn.stdout.once('data', (data: Buffer) => resolve(data.toString().trim())));
  const commands = [
    ['--help'], ['tenants', 'list', '--json'], ['migrate', '--json'], ['plugins', '--json'], ['config', '--json'],
    ['search', 'hello', '--tenant', 'bench-cli', '--url', `http://127.0.0.1:${port}`, '--token', 'bench', '--json'],
    ['webhooks', 'sign', '--secret', 'bench', '--body', '{}', '--id', 'bench', '--timestamp', '1', '--json'],
  ];
  execFileSync('bash', ['-c', `git -C ${JSON.stringify(ROOT_DIR)} archive ${ref} | tar -x -C ${JSON.stringify(baseline)}`]);
  symlinkSync(path.join(ROOT_DIR, 'node_modules'), path.join(baseline, 'node_modules'));
  timed(ROOT_DIR, ['core/cli/bin.ts', 'migrate']);
  spawnSync(process.execPath, ['core/cli/bin.ts', 'tenants', 'create', 'bench-cli'], { cwd: ROOT_DIR, env });
  const rows = [
    { command: 'node -e 0', now: median(ROOT_DIR, ['-e', '0']), before: undefined as number | undefined },
    ...commands.map((args) => ({
      command: `platform ${args[0] === '--help' ? '--help' : args.slice(0, 2).filter((arg) => !arg.startsWith('--')).join(' ')}`,
      now: median(ROOT_DIR, ['core/cli/bin.ts', ...args]),
      before: median(baseline, ['core/cli/bin.ts', ...args]),
    })),
  ];
  console.log(`| Command | ${ref} (ms, median of ${RUNS}) | now (ms) | ratio |`);
  console.log('|---|---|---|---|');
  for (const row of rows) {
    console.log(`| \`${row.command}\` | ${row.before === undefined ? '—' : row.before.toFixed(0)} | ${row.now.toFixed(0)} | ${row.before === undefined ? '—' : `${(row.now / row.before).toFixed(2)}×`} |`);
  }
} finally {
  standIn.kill();
  rmSync(baseline, { recursive: true, force: true });
}

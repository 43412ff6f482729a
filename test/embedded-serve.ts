// `platform serve` as `npm start` runs it on the embedded default (no
// DATABASE_URL: PGlite in-process), started as a child process by the tests
// that prove the two-command install works, plugin by plugin. A test whose
// point is not the first start of a fresh install starts it on a copy of the
// migrated template of the manifest it loads (core/sdk/embedded-template.ts):
// the first start there still generates the master key and the super-admin
// token (the template has neither), and finds every migration applied.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Test } from 'tap';
import { ROOT_DIR } from '../core/paths.ts';
import { until } from './harness.ts';

export const BIN = path.join(ROOT_DIR, 'core', 'cli', 'bin.ts');
export const TOKEN_LINE = /Generated super-admin token \(shown once, store it now\): (adm_[0-9a-f]+)/;
/** Preloaded with --require: refuses and reports on stderr ("NETWORK-ATTEMPT host:port") any connection that leaves loopback. */
const NO_NETWORK_PRELOAD = path.join(ROOT_DIR, 'test', 'fixtures', 'no-network.cjs');

/** Settings a plain `npm start` does not have: a database, preset secrets, a manifest, models and parsers to reach. */
const INHERITED = /^(DATABASE_URL|TEST_DATABASE_URL|PLATFORM_MASTER_KEY|ADMIN_TOKEN|PLATFORM_MANIFEST|HOST|LLM_.*|INGESTION_.*|UNSTRUCTURED_.*)$/;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface EmbeddedOptions {
  /** Laid over the plain environment (e.g. PLATFORM_MANIFEST, LLM_BASE_URL). */
  env?: NodeJS.ProcessEnv;
  /** Preload the guard that refuses non-loopback connections. */
  noNetwork?: boolean;
}

/** The environment of a plain `npm start` on this data dir and port. */
export function embeddedEnv(dataDir: string, port: number, options: EmbeddedOptions = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PLATFORM_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' };
  for (const name of Object.keys(env)) if (INHERITED.test(name)) delete env[name];
  if (options.noNetwork) env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${NO_NETWORK_PRELOAD}`.trim();
  return { ...env, ...options.env };
}

export interface Served {
  child: ChildProcess;
  base: string;
  output: () => string;
  exitCode: Promise<number | null>;
}

/** The server record `platform serve` writes in its data dir once it listens; null while there is none, or while it is being written. */
async function serverRecord(dataDir: string): Promise<{ pid: number; url: string } | null> {
  try {
    return JSON.parse(await readFile(path.join(dataDir, 'server.json'), 'utf8')) as { pid: number; url: string };
  } catch {
    return null;
  }
}

/**
 * Starts `platform serve` on a port the system chooses (PORT=0: a port probed
 * free beforehand could be taken by another test's server meanwhile), reads
 * its address from the server record it writes in the data dir once it
 * listens, and waits until /health answers (bounded; fails early, with its
 * output, if the child exits).
 */
export async function serve(dataDir: string, options: EmbeddedOptions = {}, readyTimeoutMs = 120_000): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve'], { cwd: ROOT_DIR, env: embeddedEnv(dataDir, 0, options), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exitCode = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let exited = false;
  void exitCode.then(() => (exited = true));
  try {
    const base = await until(async () => {
      if (exited) throw new Error(`serve exited before it was ready:\n${output}`);
      const record = await serverRecord(dataDir);
      if (!record || record.pid !== child.pid) return undefined;
      return await fetch(`${record.url}/health`).then((res) => res.ok && record.url, () => undefined);
    }, 'the embedded server to answer /health', readyTimeoutMs);
    return { child, base, output: () => output, exitCode };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}

/** SIGTERM, then SIGKILL if it has not exited within the grace period; resolves with the exit code (null when killed). */
export async function stop(served: Served, graceMs = 30_000): Promise<number | null> {
  if (served.child.exitCode !== null || served.child.signalCode !== null) return served.exitCode;
  served.child.kill('SIGTERM');
  const killer = setTimeout(() => served.child.kill('SIGKILL'), graceMs);
  try {
    return await served.exitCode;
  } finally {
    clearTimeout(killer);
  }
}

export interface ServeFreshOptions extends EmbeddedOptions {
  /**
   * What the server's data dir starts as: 'empty-dir' (default), as a fresh
   * install, where the first start runs PGlite's initdb and every migration;
   * 'migrated-template', a copy of the migrated template of the manifest the
   * server loads, for tests whose point is what comes after the first start.
   */
  from?: 'empty-dir' | 'migrated-template';
}

/**
 * A new data dir (under the embedded test root; the caller removes it): a copy
 * of the migrated template of what `platform serve` migrates with these
 * options, core's migrations and those of the manifest it loads
 * (PLATFORM_MANIFEST, else the default). Imported here, not above: the
 * plugins, the migrator and the job queues load only in tests that use it.
 */
export async function migratedDataDir(options: EmbeddedOptions = {}): Promise<string> {
  const [{ manifestPathOf }, { readManifest }, { migrationSourcesOf, resolvePlugins }, { embeddedTestDataDir }] = await Promise.all([
    import('../core/config.ts'), import('../core/manifest.ts'), import('../core/plugin-loader.ts'), import('../core/sdk/embedded-template.ts'),
  ]);
  const env = embeddedEnv('', 0, options);
  return embeddedTestDataDir(migrationSourcesOf(await resolvePlugins(await readManifest(manifestPathOf(env), env), ROOT_DIR)));
}

/** A server on a fresh data dir, stopped and its data removed when the test ends, with the admin token it printed. */
export async function serveFresh(t: Test, options: ServeFreshOptions = {}): Promise<Served & { token: string }> {
  const dataDir = options.from === 'migrated-template'
    ? await migratedDataDir(options)
    : await mkdtemp(path.join(tmpdir(), 'platform-embedded-'));
  let served: Served | undefined;
  t.teardown(async () => {
    if (served) await stop(served);
    await rm(dataDir, { recursive: true, force: true });
  });
  served = await serve(dataDir, options);
  const started = served;
  const token = await until(async () => TOKEN_LINE.exec(started.output())?.[1], 'the generated admin token', 10_000);
  return { ...started, token };
}

/** One HTTP request to a served platform: JSON in, JSON (or the raw text of SSE and pages) out. */
export async function call(base: string, url: string, options: { method?: string; token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${url}`, {
    method: options.method ?? 'GET', headers, body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (SSE, HTML): the text is the body
  }
  return { status: res.status, body, text, contentType: res.headers.get('content-type') ?? '' };
}

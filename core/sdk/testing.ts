// The test harness of the SDK (agent-platform/sdk/testing, apart from the entry):
// starts the real platform on a fresh real database for one test file (or one
// test) and tears both down; runs CLI commands as a child process.
// With TEST_DATABASE_URL, a throwaway PostgreSQL cluster (this repo's
// scripts/with-test-db.sh starts one), a fresh database is a copy of a
// template database migrated once per run (test-template.ts). Without it, the
// platform's embedded database: a fresh data directory is a copy of a template
// data directory migrated once per run (embedded-test-database.ts). Either
// way the boot then applies only what the test's manifest adds (a partner
// plugin's migrations).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import type { Platform } from '../boot.ts';
import { loadConfig, manifestPathOf } from '../config.ts';
import { readManifest, validateManifest, type ManifestEntry } from '../manifest.ts';
import { migrationSourcesOf, resolvePlugins } from '../plugin-loader.ts';
import { ROOT_DIR } from '../paths.ts';
import type { ServiceOverrides } from '../plugin-contract.ts';
import { createEmbeddedTestDatabase, databaseEnvOf, trackOpen } from './embedded-test-database.ts';
import { migratedTemplate } from './test-template.ts';

/** What the harness needs of a test (node-tap's `t`; node:test's `{ teardown: (fn) => t.after(fn) }`). */
export interface Tap {
  teardown(fn: () => unknown): void;
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * Creates a test database, removed at teardown: empty, or with `migrated`, a
 * copy of the template that has every migration of core and of the repo's
 * plugins. On the cluster TEST_DATABASE_URL names, a database (its URL is
 * returned); without it, an embedded data directory (its file: URL).
 */
export async function createTestDatabase(t: Tap, options: { migrated?: boolean } = {}): Promise<string> {
  const clusterUrl = process.env.TEST_DATABASE_URL;
  if (!clusterUrl) {
    const sources = options.migrated ? migrationSourcesOf(await resolvePlugins(await readManifest(manifestPathOf({}), {}), ROOT_DIR)) : undefined;
    return createEmbeddedTestDatabase(t, sources);
  }
  const name = `t_${randomBytes(6).toString('hex')}`;
  const template = options.migrated ? await migratedTemplate(clusterUrl) : undefined;
  const admin = adminPool(clusterUrl);
  // FILE_COPY copies the template's files (a few ms with fsync off) instead of logging every block.
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY` : `CREATE DATABASE ${name}`);
  t.teardown(async () => {
    await closedConnections(admin, name);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
  return withDatabase(clusterUrl, name);
}

/** How long a drop waits for the database's connections to close before ending the rest (FORCE). */
const DROP_GRACE_MS = 200;

/**
 * Waits (briefly) until no connection to the database is left: a pool a test
 * has just ended may still be closing its connections, and FORCE would end
 * them with an error their client reports.
 */
async function closedConnections(admin: pg.Pool, name: string): Promise<void> {
  const deadline = Date.now() + DROP_GRACE_MS;
  while (Date.now() < deadline) {
    const { rows } = await admin.query<{ open: number }>('SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1', [name]);
    if (rows[0].open === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const adminPools = new Map<string, pg.Pool>();

/**
 * The connection that creates and drops a process's test databases: one, kept
 * while in use (a test file creates and drops several in a row; each new
 * connection is a server process to start), which never holds the process open.
 */
function adminPool(clusterUrl: string): pg.Pool {
  let pool = adminPools.get(clusterUrl);
  if (!pool) {
    pool = new pg.Pool({ connectionString: clusterUrl, max: 1, idleTimeoutMillis: 2000, allowExitOnIdle: true });
    pool.on('error', () => {});
    adminPools.set(clusterUrl, pool);
  }
  return pool;
}

/** A manifest as a value: plugin references as in a manifest file (paths from the repo root, or package names). */
export interface ManifestValue {
  server?: { port?: number; host?: string };
  plugins: { plugin: string; options?: Record<string, unknown> }[];
}

export interface TestPlatformOptions {
  /** The manifest: a file (absolute, or relative to the repo root) or a value; default PLATFORM_MANIFEST, else manifests/default.yaml. */
  manifest?: string | ManifestValue;
  env?: Record<string, string | undefined>;
  /** Services to replace: `clock`, `fetch` (every outbound call), `modelClient` (chat's LLM client). */
  services?: ServiceOverrides;
  /** Collect log lines (as parsed JSON) instead of discarding them. */
  captureLogs?: boolean;
  /** Listen on a loopback port (needed for real HTTP clients); inject works either way. */
  listen?: boolean;
  /** Reuse a database (e.g. to restart on the same data): a TestPlatform's `databaseUrl`. */
  databaseUrl?: string;
}

export interface TestPlatform {
  platform: Platform;
  adminToken: string;
  /** The database: PostgreSQL's URL, or the embedded data directory's file: URL. */
  databaseUrl: string;
  env: Record<string, string | undefined>;
  logs: string[];
  /** Injects a request; `token` becomes a bearer header, `tenant` X-Tenant-ID. */
  request(options: RequestOptions): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  url(path: string): string;
  stop(): Promise<void>;
}

export interface RequestOptions {
  method?: string;
  url: string;
  token?: string;
  apiKey?: string;
  tenant?: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

export function testSecrets() {
  return {
    ADMIN_TOKEN: `adm_${randomBytes(16).toString('hex')}`,
    PLATFORM_MASTER_KEY: randomBytes(32).toString('hex'),
    SERVICE_JWT_SECRET: randomBytes(32).toString('hex'),
  };
}

export async function startTestPlatform(t: Tap, options: TestPlatformOptions = {}): Promise<TestPlatform> {
  // Imported here: a plugin imports this module through the SDK, and the boot imports the plugins.
  const { createPlatform } = await import('../boot.ts');
  const manifestFile = typeof options.manifest === 'string' ? { PLATFORM_MANIFEST: options.manifest } : {};
  const settings = { ...process.env, ...manifestFile, ...options.env };
  const manifest = typeof options.manifest === 'object'
    ? validateManifest({
      ...options.manifest,
      plugins: options.manifest.plugins.map((entry): ManifestEntry => ({ plugin: entry.plugin, options: entry.options ?? {} })),
    })
    : await readManifest(manifestPathOf(settings), settings);
  const databaseUrl = options.databaseUrl ?? (process.env.TEST_DATABASE_URL
    ? await createTestDatabase(t, { migrated: true })
    // Embedded: a template of exactly this manifest's migrations (a partner's test migrates two plugins, not twenty).
    : await createEmbeddedTestDatabase(t, migrationSourcesOf(await resolvePlugins(manifest, ROOT_DIR))));
  const env = {
    ...process.env,
    ...testSecrets(),
    ...databaseEnvOf(databaseUrl),
    LOG_LEVEL: options.captureLogs ? 'debug' : 'silent',
    JOBS_POLL_INTERVAL_MS: '100',
    SHUTDOWN_TIMEOUT_MS: '10000',
    ...manifestFile,
    ...options.env,
  };
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const platform = await createPlatform({
    config: loadConfig(env),
    logStream: logStream as never,
    port: 0,
    host: '127.0.0.1',
    announceAdminToken: () => {},
    manifest,
    services: options.services,
  });
  if (options.listen) await platform.start();
  else await platform.server.initialize();
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= platform.stop().finally(forget);
    return stopping;
  };
  const forget = trackOpen(databaseUrl, stop);
  t.teardown(stop);
  return {
    platform,
    adminToken: env.ADMIN_TOKEN!,
    databaseUrl,
    env,
    logs,
    url: (route) => `${platform.server.info.uri}${route}`,
    stop,
    async request({ method = 'GET', url, token, apiKey, tenant, payload, headers = {} }) {
      const all: Record<string, string> = { ...headers };
      if (token) all.authorization = `Bearer ${token}`;
      if (apiKey) all['x-api-key'] = apiKey;
      if (tenant) all['x-tenant-id'] = tenant;
      const response = await platform.server.inject({ method, url, headers: all, payload: payload as never });
      let body: unknown = response.payload;
      try {
        body = JSON.parse(response.payload);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.statusCode, body, headers: response.headers };
    },
  };
}

/** A tenant with an admin user and that user's token, created through the API. */
export async function tenantWithAdmin(tp: TestPlatform, alias: string, sub = `${alias}-admin`) {
  const created = await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id: alias } });
  if (created.status !== 201) throw new Error(`tenant ${alias}: ${JSON.stringify(created.body)}`);
  const user = await tp.request({
    method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub, display_name: sub, organizations: [alias], roles: ['admin'] },
  });
  if (user.status !== 201) throw new Error(`user ${sub}: ${JSON.stringify(user.body)}`);
  const token = await tp.request({ method: 'POST', url: `/api/admin/users/${sub}/tokens`, token: tp.adminToken });
  return { alias, sub, token: token.body.access_token as string };
}

/** Polls `check` every 50 ms until it returns something truthy (returned), or fails after timeoutMs. */
export async function until<T>(check: () => Promise<T | undefined | false | null>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = await check();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export const CLI_BIN = path.join(ROOT_DIR, 'core', 'cli', 'bin.ts');

export interface CliResult {
  /** The exit code (1 when killed at the timeout). */
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (--json), undefined when it is not JSON. */
  json: any;
}

export interface RunCliOptions {
  /** Run against this test platform: its database, master key and manifest. */
  platform?: TestPlatform;
  /** More environment (over the process's and the platform's); a value '' unsets a setting. */
  env?: Record<string, string | undefined>;
  /** false: `env` is the whole environment (nothing from this process's). */
  inheritEnv?: boolean;
  /** Written to the command's stdin, which is then closed. */
  stdin?: string;
  timeoutMs?: number;
}

/** Runs `platform <args>` (core/cli/bin.ts) as a child process, as an operator would. */
export function runCli(args: string[], options: RunCliOptions = {}): Promise<CliResult> {
  const { platform } = options;
  const env = options.inheritEnv === false ? { ...options.env } : {
    ...process.env,
    LOG_LEVEL: 'silent',
    ...(platform ? {
      ...databaseEnvOf(platform.databaseUrl), PLATFORM_MASTER_KEY: platform.env.PLATFORM_MASTER_KEY, PLATFORM_MANIFEST: platform.env.PLATFORM_MANIFEST,
    } : {}),
    ...options.env,
  };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: ROOT_DIR, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(options.stdin ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        // not JSON
      }
      resolve({ code: code ?? 1, stdout, stderr, json });
    });
  });
}

// Starts the real platform on a fresh real database for one test file (or one
// test), and tears both down. TEST_DATABASE_URL names the throwaway cluster
// that scripts/with-test-db.sh started. A fresh database is a copy of a
// template migrated once per run (test-template.ts); the boot then applies
// only what a test's manifest adds.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import { createPlatform, type Platform } from '../core/boot.ts';
import { loadConfig } from '../core/config.ts';
import { migratedTemplate } from './test-template.ts';

export interface Tap {
  teardown(fn: () => unknown): void;
}

function clusterUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run tests through `npm test` (scripts/with-test-db.sh)');
  return url;
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * Creates a database on the test cluster, dropped at teardown: empty, or with
 * `migrated`, a copy of the template that has every migration of core and of
 * the repo's plugins.
 */
export async function createTestDatabase(t: Tap, options: { migrated?: boolean } = {}): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const template = options.migrated ? await migratedTemplate(clusterUrl()) : undefined;
  const admin = new pg.Client({ connectionString: clusterUrl() });
  await admin.connect();
  // FILE_COPY copies the template's files (a few ms with fsync off) instead of logging every block.
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY` : `CREATE DATABASE ${name}`);
  await admin.end();
  t.teardown(async () => {
    const client = new pg.Client({ connectionString: clusterUrl() });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  });
  return withDatabase(clusterUrl(), name);
}

export interface TestPlatformOptions {
  env?: Record<string, string | undefined>;
  /** Collect log lines (as parsed JSON) instead of discarding them. */
  captureLogs?: boolean;
  /** Listen on a loopback port (needed for real HTTP clients); inject works either way. */
  listen?: boolean;
  /** Reuse a database (e.g. to restart on the same data). */
  databaseUrl?: string;
}

export interface TestPlatform {
  platform: Platform;
  adminToken: string;
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
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase(t, { migrated: true }));
  const env = {
    ...process.env,
    ...testSecrets(),
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: options.captureLogs ? 'debug' : 'silent',
    JOBS_POLL_INTERVAL_MS: '100',
    SHUTDOWN_TIMEOUT_MS: '10000',
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
  });
  if (options.listen) await platform.start();
  else await platform.server.initialize();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await platform.stop();
  };
  t.teardown(stop);
  return {
    platform,
    adminToken: env.ADMIN_TOKEN!,
    databaseUrl,
    env,
    logs,
    url: (path) => `${platform.server.info.uri}${path}`,
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

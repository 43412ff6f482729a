// Liveness and readiness. /health queries nothing; /readyz checks what the
// platform needs to serve: the database, current migrations, the master key,
// and the checks plugins add (addReadinessCheck: e.g. the lakehouse's
// connectivity). /api/v1/status and /api/v1/services/health give the
// platform's status and every check by name.
import type { Request, Server } from '@hapi/hapi';
import type pg from 'pg';
import { pendingMigrations, type MigrationSource } from '../db/migrate.ts';

interface ReadinessDeps {
  pool: pg.Pool;
  version: string;
  /** The loaded plugins' names, in dependency order. */
  plugins: string[];
  /** Core's and the loaded plugins' migrations. */
  migrations: MigrationSource[];
  masterKeyPresent: () => boolean;
}

/**
 * Informational details plugins add to /readyz (e.g. ingestion: which embedder
 * is configured, or that search is keyword only). They never change readiness.
 */
const readinessDetails = new WeakMap<object, Map<string, () => unknown>>();

export function addReadinessDetails(server: Server, name: string, details: () => unknown): void {
  // server.info is the one object all plugin realms of a server share.
  const map = readinessDetails.get(server.info) ?? new Map<string, () => unknown>();
  map.set(name, details);
  readinessDetails.set(server.info, map);
}

/** Checks plugins add that do decide readiness: a message (or a thrown error) is a failure, undefined is ok. */
const readinessChecks = new WeakMap<object, Map<string, () => Promise<string | undefined>>>();

export function addReadinessCheck(server: Server, name: string, work: () => Promise<string | undefined>): void {
  const map = readinessChecks.get(server.info) ?? new Map<string, () => Promise<string | undefined>>();
  map.set(name, work);
  readinessChecks.set(server.info, map);
}

async function check(work: () => Promise<string | undefined>): Promise<string> {
  try {
    return (await work()) ?? 'ok';
  } catch (err) {
    return `failed: ${(err as Error).message}`;
  }
}

/**
 * Anonymous callers (load balancers, probes) learn only which check failed:
 * a raw database error names hosts, users, databases and server versions.
 * The super-admin sees the full text.
 */
function redactChecks(checks: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(checks).map(([name, value]) => [name, value === 'ok' ? 'ok' : 'failed']));
}

function isSuperAdmin(request: Request): boolean {
  return request.auth.isAuthenticated && (request.auth.credentials as { kind?: string }).kind === 'super_admin';
}

/** Every readiness check by name: core's, then the plugins'. */
async function runChecks(server: Server, deps: ReadinessDeps): Promise<Record<string, string>> {
  const checks: Record<string, string> = {
    database: await check(async () => {
      await deps.pool.query('SELECT 1');
      return undefined;
    }),
    migrations: await check(async () => {
      const pending = await pendingMigrations(deps.pool, deps.migrations);
      return pending.length ? `failed: pending ${pending.join(', ')}` : undefined;
    }),
    master_key: deps.masterKeyPresent() ? 'ok' : 'failed: missing',
  };
  for (const [name, work] of readinessChecks.get(server.info) ?? []) {
    checks[name] = await check(async () => {
      const problem = await work();
      return problem === undefined ? undefined : `failed: ${problem}`;
    });
  }
  return checks;
}

const optionalAuth = {
  // Optional auth: a valid super-admin bearer sees error details, everyone else the status only.
  auth: { strategy: 'bearer', mode: 'try' as const },
  plugins: { platform: { tenant: 'none' as const } },
};

export function registerOps(server: Server, deps: ReadinessDeps): void {
  const startedAt = new Date();
  server.route({
    method: 'GET',
    path: '/health',
    options: { auth: false, description: 'Liveness', tags: ['api', 'operations'] },
    handler: () => ({ status: 'ok' }),
  });

  server.route({
    method: 'GET',
    path: '/readyz',
    options: {
      ...optionalAuth,
      description: 'Readiness: database, migrations, master key and the plugins\' checks (failure details for the super-admin only)',
      tags: ['api', 'operations'],
    },
    handler: async (request, h) => {
      const checks = await runChecks(server, deps);
      const ready = Object.values(checks).every((value) => value === 'ok');
      const extra = readinessDetails.get(server.info);
      const details = extra ? Object.fromEntries([...extra].map(([name, read]) => [name, read()])) : undefined;
      return h.response({ status: ready ? 'ready' : 'unavailable', checks: isSuperAdmin(request) ? checks : redactChecks(checks), ...(details ? { details } : {}) }).code(ready ? 200 : 503);
    },
  });

  server.route({
    method: 'GET',
    path: '/api/v1/status',
    options: { auth: false, description: 'Platform status: version, uptime (queries nothing)', tags: ['api', 'operations'] },
    handler: () => ({
      status: 'ok',
      version: deps.version,
      started_at: startedAt.toISOString(),
      uptime_seconds: Math.floor((Date.now() - startedAt.getTime()) / 1000),
    }),
  });

  server.route({
    method: 'GET',
    path: '/api/v1/services/health',
    options: {
      ...optionalAuth,
      description: 'Health of each service the platform depends on (the readiness checks by name, and for the super-admin the failure details and the loaded plugins); 503 when one fails',
      tags: ['api', 'operations'],
    },
    handler: async (request, h) => {
      const checks = await runChecks(server, deps);
      const healthy = Object.values(checks).every((value) => value === 'ok');
      const shown = isSuperAdmin(request) ? checks : redactChecks(checks);
      const services = Object.fromEntries(Object.entries(shown).map(([name, value]) => [name, value === 'ok' ? { status: 'ok' } : { status: 'failed', detail: value === 'failed' ? undefined : value.replace(/^failed: /, '') }]));
      return h.response({ status: healthy ? 'healthy' : 'unhealthy', services, ...(isSuperAdmin(request) ? { plugins: deps.plugins } : {}) }).code(healthy ? 200 : 503);
    },
  });
}

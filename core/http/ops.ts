// Liveness and readiness. /health queries nothing; /readyz checks what the
// platform needs to serve: the database, current migrations, the master key.
import type { Server } from '@hapi/hapi';
import type pg from 'pg';
import { pendingMigrations, type MigrationSource } from '../db/migrate.ts';

interface ReadinessDeps {
  pool: pg.Pool;
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

export function registerOps(server: Server, deps: ReadinessDeps): void {
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
      // Optional auth: a valid super-admin bearer sees error details, everyone else the status only.
      auth: { strategy: 'bearer', mode: 'try' },
      plugins: { platform: { tenant: 'none' } },
      description: 'Readiness: database, migrations, master key (failure details for the super-admin only)',
      tags: ['api', 'operations'],
    },
    handler: async (request, h) => {
      const checks = {
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
      const ready = Object.values(checks).every((value) => value === 'ok');
      const superAdmin = request.auth.isAuthenticated && (request.auth.credentials as { kind?: string }).kind === 'super_admin';
      const extra = readinessDetails.get(server.info);
      const details = extra ? Object.fromEntries([...extra].map(([name, read]) => [name, read()])) : undefined;
      return h.response({ status: ready ? 'ready' : 'unavailable', checks: superAdmin ? checks : redactChecks(checks), ...(details ? { details } : {}) }).code(ready ? 200 : 503);
    },
  });
}

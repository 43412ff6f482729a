// For tests that need the database as an earlier version of the platform
// left it (rows stored before a check existed), and a second instance on the
// same database: a superuser connection, the deployment's own secret box
// (same master key), and a restart that keeps the deployment's secrets.
import pg from 'pg';
import { createSecretBox, parseMasterKey, type SecretBox } from '../../../core/secrets.ts';
import type { Tap, TestPlatform } from 'agent-platform/sdk/testing';
import { startIntegrationsPlatform } from './helpers.ts';

/** A connection that sees every tenant's rows (the test cluster's superuser). */
export async function superuser(t: Tap, tp: TestPlatform): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: tp.databaseUrl });
  await client.connect();
  t.teardown(() => client.end());
  return client;
}

/** Seals as the deployment does (its master key). */
export function secretBoxOf(tp: TestPlatform): SecretBox {
  return createSecretBox(parseMasterKey(tp.env.PLATFORM_MASTER_KEY!));
}

/** Stops `tp` and starts another instance on its database with the same secrets (tokens stay valid) and `env`. */
export async function restart(t: Tap, tp: TestPlatform, env: Record<string, string | undefined> = {}): Promise<TestPlatform> {
  await tp.stop();
  const { ADMIN_TOKEN, PLATFORM_MASTER_KEY, SERVICE_JWT_SECRET } = tp.env;
  return startIntegrationsPlatform(t, { databaseUrl: tp.databaseUrl, env: { ADMIN_TOKEN, PLATFORM_MASTER_KEY, SERVICE_JWT_SECRET, ...env } });
}

// Shared by the sources tests: a platform with two tenants, requests as a
// tenant's admin, and a PostgreSQL database to use as a source.
import pg from 'pg';
import { createTestDatabase, startTestPlatform, tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';

type Tap = Parameters<typeof startTestPlatform>[0];

/** With `workers`, the platform is started (job workers on: discoveries and syncs run). */
export async function sourcesPlatform(t: Tap, env: Record<string, string> = {}, options: { captureLogs?: boolean; workers?: boolean } = {}) {
  const tp = await startTestPlatform(t, { env: { PIPELINES_ALLOW_PRIVATE_NETWORKS: 'true', ...env }, captureLogs: options.captureLogs, listen: options.workers });
  const acme = await tenantWithAdmin(tp, 'acme');
  const beta = await tenantWithAdmin(tp, 'beta');
  const as = (who: { token: string; alias: string }) =>
    (method: string, url: string, payload?: unknown) => tp.request({ method, url, token: who.token, tenant: who.alias, payload });
  return { tp, acme, beta, asAcme: as(acme), asBeta: as(beta) };
}

/** A user of the given organizations with the given roles, and its token. */
export async function userToken(tp: TestPlatform, sub: string, organizations: string[], roles: string[] = []): Promise<string> {
  const created = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub, display_name: sub, organizations, roles } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return (await tp.request({ method: 'POST', url: `/api/admin/users/${sub}/tokens`, token: tp.adminToken })).body.access_token as string;
}

/** An empty database on the test cluster (dropped at teardown), a client on it, and its connection settings for a postgres source. */
export async function upstreamDatabase(t: Tap) {
  const url = await createTestDatabase(t);
  const client = new pg.Client({ connectionString: url });
  // The database is dropped (WITH FORCE) at teardown, maybe before this client ends.
  client.on('error', () => {});
  await client.connect();
  t.teardown(() => client.end());
  // A source is reached as a remote database is, over TCP (the tests' own connections may use the cluster's socket).
  const tcp = new URL(process.env.TEST_DATABASE_TCP_URL ?? url);
  const config = { host: tcp.hostname, port: Number(tcp.port), database: new URL(url).pathname.slice(1), user: decodeURIComponent(tcp.username) };
  return { url, client, config };
}

/** Rows of the platform's database read as the superuser (to look at what is stored). */
export async function stored(tp: TestPlatform, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: tp.databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

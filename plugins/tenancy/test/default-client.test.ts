// Every tenant has a client from its creation on, so a chat session can be
// opened as soon as the tenant exists; tenants made before that get one when
// the platform is upgraded (plugins/tenancy/sql/0001_default_clients.sql).
import t from 'tap';
import pg from 'pg';
import { createTestDatabase, startTestPlatform, tenantWithAdmin } from 'agent-platform/sdk/testing';
import { migrate } from '../../../core/db/migrate.ts';
import { CORE_MIGRATIONS } from '../../../core/paths.ts';
import { MANIFEST } from '../../chat/test/helpers.ts';

t.test('a new tenant can open a chat session at once, acting for its default client', async (t) => {
  const tp = await startTestPlatform(t, { manifest: MANIFEST, env: { LLM_BASE_URL: '' } });
  await tp.platform.start();
  const { token } = await tenantWithAdmin(tp, 'fresh');
  const [byDefault] = (await tp.request({ url: '/api/admin/clients', token })).body.items;
  const session = await tp.request({ method: 'POST', url: '/api/sessions', token, payload: {} });
  t.equal(session.status, 201, 'no client had to be created first');
  t.equal(session.body.client_id, byDefault.id, 'the session acts for the default client');
});

t.test('upgrading gives each tenant without a client its default client, and leaves the others as they were', async (t) => {
  // A database from before default clients: core's tables only, two tenants, one with a client.
  const databaseUrl = await createTestDatabase(t);
  const pool = new pg.Pool({ connectionString: databaseUrl });
  await migrate(pool, [CORE_MIGRATIONS]);
  await pool.query(`INSERT INTO tenants (id, display_name) VALUES ('bare', 'Bare'), ('served', 'Served')`);
  await pool.query(`INSERT INTO clients (tenant_id, name, client_key) VALUES ('served', 'web', 'ck_served_web')`);
  await pool.end();

  const tp = await startTestPlatform(t, { databaseUrl });
  const namesOf = async (tenant: string) =>
    (await tp.request({ url: '/api/admin/clients', token: tp.adminToken, tenant })).body.items.map((c: { name: string; client_key: string }) => [c.name, c.client_key]);
  const [[name, key], ...others] = await namesOf('bare');
  t.same([name, others], ['default', []], 'the tenant without a client got one default client');
  t.match(key, /^ck_[0-9a-f]{24}$/, 'with a generated key');
  t.same(await namesOf('served'), [['web', 'ck_served_web']], 'a tenant that had a client keeps exactly what it had');
});

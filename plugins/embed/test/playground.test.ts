// The console's chat playground route: a member of the tenant reads its
// default client and the manifest its configuration gives, whatever the
// configuration (never set, or disabled); another tenant's member, an API key
// and an anonymous caller are refused; each tenant sees its own client.
import t from 'tap';
import type { TestPlatform } from 'agent-platform/sdk/testing';
import { embedFixture } from './helpers.ts';

/** The tenant's oldest client, as its admin lists them. */
async function oldestClient(tp: TestPlatform, token: string): Promise<{ id: number; client_key: string }> {
  const listed = await tp.request({ url: '/api/admin/clients', token });
  return [...listed.body.items].sort((a: { id: number }, b: { id: number }) => a.id - b.id)[0];
}

t.test('GET /api/embed/playground', async (t) => {
  const f = await embedFixture(t);
  const { tp, token } = f;
  const member = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'mo-member', display_name: 'Mo', organizations: ['acme'], roles: [] } });
  t.equal(member.status, 201);
  const memberToken = (await tp.request({ method: 'POST', url: '/api/admin/users/mo-member/tokens', token: tp.adminToken })).body.access_token as string;

  const oldest = await oldestClient(tp, token);
  const read = await tp.request({ url: '/api/embed/playground', token: memberToken });
  t.equal(read.status, 200, 'any member reads it');
  t.same(read.body, {
    client_id: oldest.id, client_key: oldest.client_key,
    manifest: {
      client_key: oldest.client_key, client_id: oldest.id, tenant: 'acme', tenant_display_name: null, default_mode: 'inline',
      auth_modes: ['host-token'], features: { uploads: false, history: true, feedback: true, voice: false }, theme: {},
    },
  }, 'the default client (the oldest), never configured for embedding: the defaults, inline');
  t.equal((await tp.request({ url: `/api/embed/manifest/${oldest.client_key}`, headers: { origin: 'https://shop.example' } })).status, 404, 'the public manifest of that client still does not exist');

  const put = await tp.request({ method: 'PUT', url: `/api/admin/clients/${oldest.id}/embed`, token, payload: { enabled: false, features: { uploads: true }, theme: { accent: '#123456' } } });
  t.equal(put.status, 200);
  const configured = await tp.request({ url: '/api/embed/playground', token: memberToken });
  t.match(configured.body.manifest, { features: { uploads: true }, theme: { accent: '#123456' } }, 'the configuration\'s features and theme, though disabled');

  // The super-admin names the tenant.
  const admin = await tp.request({ url: '/api/embed/playground', token: tp.adminToken, headers: { 'x-tenant-id': 'acme' } });
  t.equal(admin.body.client_key, oldest.client_key);

  // Another tenant: its own default client; acme's member is refused there.
  const other = await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id: 'globex' } });
  t.equal(other.status, 201);
  const globexAdmin = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'gia', display_name: 'Gia', organizations: ['globex'], roles: ['admin'] } });
  t.equal(globexAdmin.status, 201);
  const gia = (await tp.request({ method: 'POST', url: '/api/admin/users/gia/tokens', token: tp.adminToken })).body.access_token as string;
  const globexClient = await oldestClient(tp, gia);
  const globex = await tp.request({ url: '/api/embed/playground', token: gia });
  t.same([globex.body.client_id, globex.body.client_key, globex.body.manifest.tenant], [globexClient.id, globexClient.client_key, 'globex'], 'globex reads its own client');
  t.not(globex.body.client_id, oldest.id);
  const crossed = await tp.request({ url: '/api/embed/playground', token: memberToken, headers: { 'x-tenant-id': 'globex' } });
  t.equal(crossed.status, 403);
  t.equal(crossed.body.code, 'TENANT_FORBIDDEN');

  // Not people: an API key of the tenant, nobody.
  const key = await tp.request({ method: 'POST', url: '/api/admin/api-keys', token, payload: { name: 'kiosk', client_id: oldest.id } });
  t.equal(key.status, 201);
  const byKey = await tp.request({ url: '/api/embed/playground', headers: { 'x-api-key': key.body.key } });
  t.equal(byKey.status, 403);
  t.equal(byKey.body.code, 'HUMAN_REQUIRED');
  t.equal((await tp.request({ url: '/api/embed/playground' })).status, 401);
});

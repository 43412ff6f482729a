// /users: the tenant's members with their roles in it;
// nothing of other tenants (neither their users nor a shared user's other
// memberships).
import t from 'tap';
import { identityPlatform, userToken } from './helpers.ts';

t.test('members of the tenant only, with their roles in it', async (t) => {
  const { tp, asAcme, asBeta } = await identityPlatform(t);
  await userToken(tp, 'both', ['acme', 'beta'], ['pipeline_editor']);
  await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'both', display_name: 'both', organizations: ['beta'], roles: ['admin'] } });
  const viewer = await userToken(tp, 'viewer', ['acme']);
  await userToken(tp, 'beta-only', ['beta']);

  const list = await asAcme('GET', '/api/v1/users');
  t.equal(list.status, 200);
  t.same(list.body.items.map((u: { sub: string; roles: string[] }) => [u.sub, u.roles]), [['acme-admin', ['admin']], ['both', ['pipeline_editor']], ['viewer', []]]);
  t.equal(list.body.total, 3);
  const betaList = await asBeta('GET', '/api/v1/users');
  t.same(betaList.body.items.map((u: { sub: string; roles: string[] }) => [u.sub, u.roles]), [['beta-admin', ['admin']], ['beta-only', []], ['both', ['admin']]]);

  const one = await asAcme('GET', '/api/v1/users/both');
  t.same([one.status, one.body.roles, one.body.display_name], [200, ['pipeline_editor'], 'both']);
  t.same([(await asAcme('GET', '/api/v1/users/beta-only')).status, (await asAcme('GET', '/api/v1/users/beta-only')).body.code], [404, 'USER_NOT_FOUND']);
  t.equal((await asAcme('GET', '/api/v1/users/nobody')).status, 404);

  // A member without an editor role reads itself only.
  const asViewer = (url: string) => tp.request({ url, token: viewer, tenant: 'acme' });
  t.equal((await asViewer('/api/v1/users/viewer')).status, 200);
  t.equal((await asViewer('/api/v1/users/both')).status, 403);
  t.equal((await asViewer('/api/v1/users')).status, 403);
});

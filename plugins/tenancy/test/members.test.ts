// A tenant admin manages its tenant's members: changes their roles and
// removes them, never touching their other memberships nor another tenant's
// members; not oneself; members without the admin role are refused.
import t from 'tap';
import { startTestPlatform, tenantWithAdmin } from 'agent-platform/sdk/testing';

t.test('roles and removal of members, by the tenant admin only, in its tenant only', async (t) => {
  const tp = await startTestPlatform(t);
  const acme = await tenantWithAdmin(tp, 'acme');
  const globex = await tenantWithAdmin(tp, 'globex');
  const both = await tp.request({
    method: 'POST', url: '/api/admin/users', token: tp.adminToken,
    payload: { sub: 'bea', display_name: 'Bea', organizations: { acme: { roles: ['staff'] }, globex: { roles: ['admin'] } } },
  });
  t.equal(both.status, 201);
  const staff = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'sam', display_name: 'Sam', organizations: ['acme'], roles: ['staff'] } });
  t.equal(staff.status, 201);
  const staffToken = (await tp.request({ method: 'POST', url: '/api/admin/users/sam/tokens', token: tp.adminToken })).body.access_token as string;
  const directory = async (sub: string) => (await tp.platform.core.pool.query('SELECT organizations FROM users WHERE sub = $1', [sub])).rows[0]?.organizations;

  const changed = await tp.request({ method: 'PATCH', url: '/api/admin/users/bea', token: acme.token, payload: { roles: ['admin', 'staff', 'admin'] } });
  t.equal(changed.status, 200);
  t.same(changed.body.organizations, { acme: { roles: ['admin', 'staff'] } }, 'the answer shows only this tenant\'s membership');
  t.same(await directory('bea'), { acme: { roles: ['admin', 'staff'] }, globex: { roles: ['admin'] } }, 'the other membership is untouched');
  const listed = await tp.request({ url: '/api/admin/users', token: acme.token });
  t.same(listed.body.items.find((u: { sub: string }) => u.sub === 'bea').organizations, { acme: { roles: ['admin', 'staff'] } });

  const plain = await tp.request({ method: 'PATCH', url: '/api/admin/users/bea', token: acme.token, payload: { roles: [] } });
  t.same(plain.body.organizations, { acme: { roles: [] } }, '[] leaves a plain member');

  for (const [what, request] of [
    ['a staff member', { method: 'PATCH', url: '/api/admin/users/bea', token: staffToken, payload: { roles: ['admin'] } }],
    ['a staff member', { method: 'DELETE', url: '/api/admin/users/bea', token: staffToken }],
  ] as const) {
    const refused = await tp.request(request);
    t.equal(refused.status, 403, `${what} may not ${request.method}`);
  }
  t.same((await directory('bea')).acme, { roles: [] }, 'nothing changed');

  const foreign = await tp.request({ method: 'PATCH', url: '/api/admin/users/sam', token: globex.token, payload: { roles: ['admin'] } });
  t.equal(foreign.status, 404, 'another tenant\'s admin does not reach acme\'s members');
  t.equal(foreign.body.code, 'USER_NOT_FOUND');
  const foreignDelete = await tp.request({ method: 'DELETE', url: '/api/admin/users/sam', token: globex.token });
  t.equal(foreignDelete.status, 404);
  const otherTenant = await tp.request({ method: 'PATCH', url: '/api/admin/users/sam', token: acme.token, tenant: 'globex', payload: { roles: ['admin'] } });
  t.equal(otherTenant.status, 403, 'an acme admin cannot act in globex');
  t.same(await directory('sam'), { acme: { roles: ['staff'] } }, 'sam is unchanged');

  const self = await tp.request({ method: 'PATCH', url: `/api/admin/users/${acme.sub}`, token: acme.token, payload: { roles: ['staff'] } });
  t.same([self.status, self.body.code], [409, 'OWN_ADMIN_ROLE'], 'an admin keeps its own admin role');
  const selfDelete = await tp.request({ method: 'DELETE', url: `/api/admin/users/${acme.sub}`, token: acme.token });
  t.same([selfDelete.status, selfDelete.body.code], [409, 'OWN_ADMIN_ROLE'], 'and does not remove itself');

  for (const payload of [{}, { roles: ['Admin'] }, { roles: 'admin' }, { roles: [], extra: 1 }]) {
    const bad = await tp.request({ method: 'PATCH', url: '/api/admin/users/bea', token: acme.token, payload });
    t.equal(bad.status, 400, `payload ${JSON.stringify(payload)} is refused`);
  }
  const badSub = await tp.request({ method: 'DELETE', url: '/api/admin/users/a%20b', token: acme.token });
  t.equal(badSub.status, 400, 'a malformed subject is a 400');
  const unknown = await tp.request({ method: 'DELETE', url: '/api/admin/users/nobody', token: acme.token });
  t.same([unknown.status, unknown.body.code], [404, 'USER_NOT_FOUND']);

  const removed = await tp.request({ method: 'DELETE', url: '/api/admin/users/bea', token: acme.token });
  t.equal(removed.status, 204);
  t.same(await directory('bea'), { globex: { roles: ['admin'] } }, 'only the acme membership is gone');
  const after = await tp.request({ url: '/api/admin/users', token: acme.token });
  t.notOk(after.body.items.some((u: { sub: string }) => u.sub === 'bea'), 'no longer listed in acme');
  const again = await tp.request({ method: 'DELETE', url: '/api/admin/users/bea', token: acme.token });
  t.equal(again.status, 404, 'removing twice: 404');
  const byOperator = await tp.request({ method: 'PATCH', url: '/api/admin/users/sam', token: tp.adminToken, tenant: 'acme', payload: { roles: ['admin'] } });
  t.equal(byOperator.status, 200, 'the super-admin, in a tenant');
});

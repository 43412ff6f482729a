// Service tokens' capabilities and delegation (core/auth/tokens.ts): the
// `capabilities` array and the space-separated `scope` claim both grant
// capabilities; an RFC 8693 `act` claim makes a delegation token acting for a
// user; a malformed `act` is a 401.
import t from 'tap';
import { capabilitiesOf, coreOf } from 'agent-platform/sdk';
import { startTestPlatform } from '../harness.ts';
import { serviceToken } from '../../plugins/ontology/test/helpers.ts';

t.test('capabilities from capabilities and scope, delegation from act, tenant claim', async (t) => {
  const tp = await startTestPlatform(t);
  const tokens = coreOf(tp.platform.server).auth.tokens;
  const plain = await tokens.verify(await serviceToken(tp, 'svc:plain'));
  t.same(plain, { kind: 'service', sub: 'svc:plain' }, 'a plain service token is unchanged');
  t.same(capabilitiesOf(plain), []);
  const scoped = await tokens.verify(await serviceToken(tp, 'svc:a', { scope: 'ontology:sync  read:all', capabilities: ['ontology:sync', 'x:y', 3] }));
  t.same(capabilitiesOf(scoped), ['ontology:sync', 'x:y', 'read:all']);
  const delegated = await tokens.verify(await serviceToken(tp, 'svc:b', { act: { sub: 'alice' }, tenant: 'acme' }));
  t.match(delegated, { kind: 'service', sub: 'svc:b', actor: { sub: 'alice' }, tenant: 'acme' });
  const user = { kind: 'user', sub: 'u', issuer: 'platform', serviceAccount: false, memberships: {} } as const;
  t.same(capabilitiesOf(user), [], 'users hold no token capabilities');
  const malformed = await tp.request({ url: '/api/v1/ontology/entity-types', token: await serviceToken(tp, 'svc:c', { act: 'alice' }), tenant: 'x' });
  t.equal(malformed.status, 401);
  t.equal(malformed.body.code, 'INVALID_TOKEN');
});

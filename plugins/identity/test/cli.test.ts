// The identity plugin's CLI commands, run as an operator would (a child
// process on the platform's database).
import t from 'tap';
import { runCli } from 'agent-platform/sdk/testing';
import { identityPlatform, PEOPLE_POLICY } from './helpers.ts';

t.test('identity policies, identity versions, schemas sync-catalog', async (t) => {
  const { tp, asAcme } = await identityPlatform(t);
  const id = (await asAcme('POST', '/api/v1/identity-policies', PEOPLE_POLICY)).body.id;
  const policies = await runCli(['identity', 'policies', '--tenant', 'acme', '--json'], { platform: tp });
  t.equal(policies.code, 0, policies.stderr);
  t.same(policies.json.items.map((p: { id: string }) => p.id), [id]);
  const versions = await runCli(['identity', 'versions', '--tenant', 'acme', '--policy', id, '--json'], { platform: tp });
  t.same(versions.json.items.map((v: { version: number }) => v.version), [1]);
  t.equal((await runCli(['identity', 'policies', '--tenant', 'beta', '--json'], { platform: tp })).json.total, 0);
  const synced = await runCli(['schemas', 'sync-catalog', '--tenant', 'acme', '--json'], { platform: tp });
  t.same(synced.json, { added: 8, updated: 0, unchanged: 0 });
  t.equal((await asAcme('GET', '/api/v1/schemas/registry?source=library')).body.total, 8);
});

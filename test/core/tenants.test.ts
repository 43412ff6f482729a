// core.tenants.each: the one walk over every tenant that maintenance tasks
// use (citations, chat, events, webhooks, ingestion). It visits each tenant
// once, in alias order, across pages, and stops at the first error.
import t from 'tap';
import { startTestPlatform } from '../harness.ts';

t.test('each visits every tenant once, in alias order, page after page', async (t) => {
  const tp = await startTestPlatform(t, { manifest: { plugins: [{ plugin: './plugins/tenancy' }] } });
  const aliases = ['t-e', 't-a', 't-d', 't-b', 't-c'];
  for (const id of aliases) {
    t.equal((await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id } })).status, 201);
  }
  const sorted = [...aliases].sort();

  for (const pageSize of [1, 2, 5, 500]) {
    const seen: string[] = [];
    const count = await tp.platform.core.tenants.each((id) => seen.push(id), { pageSize });
    t.same(seen, sorted, `page size ${pageSize}: every tenant once, in order`);
    t.equal(count, aliases.length);
  }

  const visited: string[] = [];
  await t.rejects(
    tp.platform.core.tenants.each((id) => {
      visited.push(id);
      if (id === 't-b') throw new Error('stop here');
    }, { pageSize: 2 }),
    /stop here/,
  );
  t.same(visited, ['t-a', 't-b'], 'an error of the visit stops the walk');
});

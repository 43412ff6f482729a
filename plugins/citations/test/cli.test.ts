// The citations CLI against the database a running platform uses: list (with
// filters) and stats, and a clear usage error for a bad option.
import t from 'tap';
import { runCli } from 'agent-platform/sdk/testing';
import { callFunction, citationsFixture, MANIFEST, seedDocument } from './helpers.ts';

const cli = (env: Record<string, string | undefined>, args: string[]) => runCli(args, { env: { PLATFORM_MANIFEST: MANIFEST, ...env } });

t.test('citations list and stats', async (t) => {
  const { tp } = await citationsFixture(t);
  const doc = await seedDocument(tp, 'acme', 'Plant Manual.txt', ['Valves are checked every morning before startup.']);
  const good = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: doc.chunks[0].chunk_id, quoted_text: 'checked every morning' });
  const bad = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: doc.chunks[0].chunk_id, quoted_text: 'never checked at all on weekends' });
  const env = { DATABASE_URL: tp.databaseUrl, PLATFORM_MASTER_KEY: tp.env.PLATFORM_MASTER_KEY };

  const stats = await cli(env, ['citations', 'stats', '--tenant', 'acme', '--json']);
  t.equal(stats.code, 0, stats.stderr);
  t.same(JSON.parse(stats.stdout), { verified: 1, failed: 1, pending: 0, unverified: 0, out_of_provenance: 0, total: 2 });

  const failed = await cli(env, ['citations', 'list', '--tenant', 'acme', '--status', 'failed', '--json']);
  t.equal(failed.code, 0, failed.stderr);
  t.same(JSON.parse(failed.stdout).map((c: { id: string }) => c.id), [bad.id]);
  const all = await cli(env, ['citations', 'list', '--tenant', 'acme', '--document', 'plant', '--json']);
  t.same(JSON.parse(all.stdout).map((c: { id: string }) => c.id), [bad.id, good.id]);

  const usage = await cli(env, ['citations', 'list', '--tenant', 'acme', '--status', 'great']);
  t.not(usage.code, 0);
  t.match(usage.stderr, /--status must be one of/);
});

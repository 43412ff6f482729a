// The call cache's freshness rules, driven by a fake clock: entries age out,
// a tenant's change clears its entries (and only its), a read that overlaps
// a change is not stored, and an expired session credential is never served.
import t from 'tap';
import { createCallRowCache } from '../calling/call-row-cache.ts';
import type { CallRow } from '../store/call.ts';

const row = (version: number, expiresAt: string | null = null) =>
  ({ id: 1, version, session_credential: { value_sealed: 's', header: null, expires_at: expiresAt } }) as unknown as CallRow;

t.test('entries are served until they age out or their tenant changes', async (t) => {
  let clock = 1_000;
  const cache = createCallRowCache({ maxAgeMs: 2000, now: () => clock });
  let reads = 0;
  const read = (version: number) => async () => {
    reads++;
    return row(version);
  };
  t.equal((await cache.load('a', 'fn', 's1', 1, read(1)))!.version, 1);
  t.equal((await cache.load('a', 'fn', 's1', 1, read(2)))!.version, 1, 'served from the cache');
  t.equal(reads, 1);
  t.equal((await cache.load('a', 'fn', 's2', 1, read(3)))!.version, 3, 'another session is another entry');
  clock += 2000;
  t.equal((await cache.load('a', 'fn', 's1', 1, read(4)))!.version, 4, 'aged out: read again');
  await cache.load('b', 'fn', 's1', 1, read(5));
  cache.invalidate('a');
  t.equal((await cache.load('a', 'fn', 's1', 1, read(6)))!.version, 6, 'cleared by a change of its tenant');
  t.equal((await cache.load('b', 'fn', 's1', 1, read(7)))!.version, 5, 'other tenants keep theirs');
});

t.test('a read overlapping a change is not stored; expired session credentials are not served', async (t) => {
  let clock = 1_000;
  const cache = createCallRowCache({ maxAgeMs: 60_000, now: () => clock });
  const overlapping = await cache.load('a', 'fn', null, null, async () => {
    cache.invalidate('a'); // a change commits while this read is under way
    return row(1);
  });
  t.equal(overlapping!.version, 1, 'the read itself is returned');
  t.equal((await cache.load('a', 'fn', null, null, async () => row(2)))!.version, 2, 'but it was not kept');

  const expires = new Date(clock + 500).toISOString();
  await cache.load('a', 'ttl', 's', null, async () => row(3, expires));
  t.equal((await cache.load('a', 'ttl', 's', null, async () => row(4)))!.version, 3);
  clock += 500;
  t.equal((await cache.load('a', 'ttl', 's', null, async () => row(5)))!.version, 5, 'the session credential expired: read again');

  const off = createCallRowCache({ maxAgeMs: 0 });
  await off.load('a', 'fn', null, null, async () => row(1));
  t.equal((await off.load('a', 'fn', null, null, async () => row(2)))!.version, 2, 'maxAgeMs 0 disables it');
});

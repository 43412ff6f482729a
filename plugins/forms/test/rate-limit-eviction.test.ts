// The public rate limiter holds at most 10,000 addresses; a flood of new
// addresses past that never makes it forget a throttled one.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { startTestPlatform } from 'agent-platform/sdk/testing';

const NEW_ADDRESSES = 10_050;

t.test('10,050 new addresses do not reset a throttled address', async (t) => {
  const at = new Date();
  const tp = await startTestPlatform(t, {
    // The limiter reads the platform clock: frozen, no token comes back however long the flood takes.
    services: { clock: { now: () => at } },
    manifest: { plugins: [{ plugin: './plugins/tenancy' }, { plugin: './plugins/forms', options: { publicRatePerMinute: 3, trustProxy: true } }] },
  });
  // No X-Tenant-ID: the token is taken, then the request is refused (400) before any database work.
  const submit = (address: string) => tp.request({
    method: 'POST', url: `/api/forms/use-cases/${randomUUID()}/submissions`, headers: { 'x-forwarded-for': address }, payload: { payload: {} },
  });
  for (let i = 0; i < 3; i++) t.equal((await submit('192.0.2.1')).status, 400);
  t.equal((await submit('192.0.2.1')).status, 429, 'throttled');

  const statuses = new Map<number, number>();
  for (let start = 0; start < NEW_ADDRESSES; start += 100) {
    const batch = Array.from({ length: Math.min(100, NEW_ADDRESSES - start) }, (_, k) => start + k);
    for (const { status } of await Promise.all(batch.map((i) => submit(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)))) {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  }
  t.ok((statuses.get(400) ?? 0) >= 9_999, 'new addresses are served while there is room');
  t.ok((statuses.get(429) ?? 0) > 0, 'past the room, new addresses share one overflow bucket');

  const after = await submit('192.0.2.1');
  t.equal(after.status, 429, 'the throttled address is still throttled');
  t.equal(after.body.code, 'RATE_LIMITED');
});

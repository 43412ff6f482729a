// The shared limiter's bound on keys, with a driven clock: a throttled key is
// never forgotten to make room, a refilled one is, and new keys past the
// bound share one overflow bucket.
import t from 'tap';
import { RateLimiter } from '../../core/http/rate-limit.ts';

const status = (limiter: RateLimiter, key: string) => {
  try {
    limiter.take(key);
    return 200;
  } catch (err) {
    return (err as { output: { statusCode: number } }).output.statusCode;
  }
};

t.test('full of partial buckets: new keys share the overflow; the throttled key stays throttled', async (t) => {
  let now = 0;
  const limiter = new RateLimiter({ ratePerSecond: 1, burst: 2, message: () => 'slow down', now: () => now, maxKeys: 3 });
  t.same([status(limiter, 'a'), status(limiter, 'a'), status(limiter, 'a')], [200, 200, 429]);
  t.same([status(limiter, 'b'), status(limiter, 'c')], [200, 200]);
  t.equal(limiter.size, 3);
  t.same([status(limiter, 'd'), status(limiter, 'e'), status(limiter, 'f')], [200, 200, 429], 'new keys past the bound spend one shared burst');
  t.equal(limiter.size, 3, 'no key was forgotten');
  t.equal(status(limiter, 'a'), 429, 'still throttled');
});

t.test('a key whose bucket refilled completely is evicted to make room, least recently used first', async (t) => {
  let now = 0;
  const limiter = new RateLimiter({ ratePerSecond: 1, burst: 2, message: () => 'slow down', now: () => now, maxKeys: 2 });
  status(limiter, 'a');
  now = 500;
  status(limiter, 'b');
  status(limiter, 'b');
  now = 1_000; // a has refilled (1 token + 1 s), b has not
  t.equal(status(limiter, 'c'), 200, 'room made by evicting a');
  t.equal(limiter.size, 2);
  t.same([status(limiter, 'b')], [429], 'b kept its state: half a token back, not enough');
});

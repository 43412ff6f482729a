// The cost of a shared rate limit (core/http/shared-rate-limit.ts: one upsert
// per request, or per batch of a tenth of the burst) against the
// process-local token bucket it puts in front: takes/s and latency p50/p99,
// one at a time and 32 at once, on 1 000 keys and on one hot key, with a small
// burst (10: one upsert per request, like an address's limit) and a large one
// (batches of 100, like a client's manifest reads). A high rate, so every take
// is admitted.
// Run: npm run bench:rate-limits
import pg from 'pg';
import { pino } from 'pino';
import { readFile } from 'node:fs/promises';
import { RateLimiter } from '../core/http/rate-limit.ts';
import { SharedRateLimits } from '../core/http/shared-rate-limit.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required (npm run bench:rate-limits starts a database)');
const TAKES = 5_000;

const pool = new pg.Pool({ connectionString: url, max: 20 });
// Only the limits' table (the core migration that makes it), not the whole schema.
await pool.query('DROP TABLE IF EXISTS platform_rate_limits');
await pool.query(await readFile(new URL('../sql/0007_shared_limits.sql', import.meta.url), 'utf8'));
const bursts = { 'burst 10': 10, 'burst 1 000 000': 1e6 };
const shared = new SharedRateLimits(pool, pino({ level: 'silent' }), () => Date.now());

async function measure(take: (key: string) => Promise<void> | void, keyOf: (i: number) => string, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  let refused = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < TAKES) {
      const i = next++;
      const at = performance.now();
      try {
        await take(keyOf(i));
      } catch {
        refused++; // concurrent takes of one key at one instant past its burst
      }
      latencies.push(performance.now() - at);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(3);
  return `${Math.round(TAKES / seconds)}/s  p50 ${at(0.5)} ms  p99 ${at(0.99)} ms${refused ? `  (${refused} refused)` : ''}`;
}

const keys = { '1 000 keys': (i: number) => `10.0.${(i % 1000) >> 8}.${i % 256}`, 'one hot key': () => 'client-key' };
for (const [burstLabel, burst] of Object.entries(bursts)) for (const concurrency of [1, 32]) {
  for (const [label, keyOf] of Object.entries(keys)) {
    const options = { ratePerSecond: 1e9, burst, message: () => 'no', now: () => performance.timeOrigin + performance.now() };
    const local = new RateLimiter(options);
    const limiter = shared.limiter(`bench.${burst}.${concurrency}.${label}`, options);
    console.log(`${burstLabel}, ${label}, ${concurrency} at once`);
    console.log(`  local bucket   ${await measure((key) => local.take(key), keyOf, concurrency)}`);
    console.log(`  shared bucket  ${await measure((key) => limiter.take(key), keyOf, concurrency)}`);
  }
}
shared.stop();
await pool.end();

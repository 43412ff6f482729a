// The rate limit of anonymous requests (public submission, duplicate check,
// type reads, Open311): a token bucket per client address and tenant,
// refilled continuously at publicRatePerMinute with that many as the burst.
// Kept in the process's memory (N processes allow N times the rate), which
// bounds abuse without a database write per request. Full buckets are swept.
import type { Request } from '@hapi/hapi';
import { domainError } from 'agent-platform/sdk';

const SWEEP_EVERY = 1000;

export function createRateLimiter(perMinute: number, now: () => number = Date.now) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refillPerMs = perMinute / 60_000;
  let calls = 0;

  function sweep(time: number) {
    for (const [key, bucket] of buckets) if (bucket.tokens + (time - bucket.at) * refillPerMs >= perMinute) buckets.delete(key);
  }

  return {
    /** Takes one token for the address in the tenant, or throws 429 RATE_LIMITED with Retry-After (seconds until the next token). */
    take(address: string, tenantId: string): void {
      const time = now();
      if (++calls % SWEEP_EVERY === 0) sweep(time);
      const key = `${tenantId}\u0000${address}`;
      const bucket = buckets.get(key) ?? { tokens: perMinute, at: time };
      bucket.tokens = Math.min(perMinute, bucket.tokens + (time - bucket.at) * refillPerMs);
      bucket.at = time;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return;
      }
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000));
      const error = domainError(429, `Too many anonymous requests from this address: at most ${perMinute} a minute per tenant`, 'RATE_LIMITED');
      error.output.headers['Retry-After'] = String(retryAfter);
      throw error;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** The client's address: the first X-Forwarded-For entry when the deployment trusts its proxy, else the socket's. */
export function clientAddress(request: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = String(request.headers['x-forwarded-for'] ?? '').split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return request.info.remoteAddress || 'unknown';
}

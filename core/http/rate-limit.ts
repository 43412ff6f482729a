// Token buckets per key (a client address, a client), in this process's
// memory: each server process limits on its own (N processes allow N times
// the rate), which bounds abuse without a database write per request. The
// map is bounded: the least recently used keys go first. One limiter for
// every plugin's public surface (forms, occurrences, embed, approval links).
import type { Request } from '@hapi/hapi';
import { domainError } from '../errors.ts';

const MAX_KEYS = 10_000;

export interface RateLimitOptions {
  /** Tokens added per second. */
  ratePerSecond: number;
  /** The most tokens a key holds: the requests admitted at once. */
  burst: number;
  /** The 429's message, given the whole seconds until a token is back. */
  message: (retryAfterSeconds: number) => string;
  /** Milliseconds of a monotonic or driven clock (default performance.now). */
  now?: () => number;
}

/** Options for `perMinute` requests a minute with as many at once. */
export function perMinute(count: number, message: RateLimitOptions['message'], now?: () => number): RateLimitOptions {
  return { ratePerSecond: count / 60, burst: count, message, now };
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly options: RateLimitOptions;

  constructor(options: RateLimitOptions) {
    this.options = options;
  }

  /** Takes one token for `key`, or throws 429 RATE_LIMITED with Retry-After. */
  take(key: string): void {
    const { ratePerSecond, burst, message } = this.options;
    const now = this.options.now?.() ?? performance.now();
    let bucket = this.buckets.get(key);
    if (bucket) {
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * ratePerSecond);
      bucket.at = now;
      this.buckets.delete(key); // re-inserted below: the map's order is recency
    } else {
      if (this.buckets.size >= MAX_KEYS) this.buckets.delete(this.buckets.keys().next().value!);
      bucket = { tokens: burst, at: now };
    }
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond));
    const error = domainError(429, message(retryAfter), 'RATE_LIMITED');
    error.output.headers['Retry-After'] = String(retryAfter);
    throw error;
  }
}

/** The client's address: the first X-Forwarded-For entry when the deployment trusts its proxy, else the socket's. */
export function clientAddress(request: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = String(request.headers['x-forwarded-for'] ?? '').split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return request.info.remoteAddress || 'unknown';
}

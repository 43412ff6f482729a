// Token buckets per key (a client address, a client), in this process's
// memory. On its own it limits one process (N processes would allow N times
// the rate); the plugins' public surfaces (forms, occurrences, embed, approval
// links) take core.rateLimits' limiters, which put this bucket in front of one
// shared through PostgreSQL (shared-rate-limit.ts), so their limits hold
// across processes.
//
// The map is bounded without forgetting a throttled key: only a bucket that
// has refilled completely (the same as a new one) is evicted, least recently
// used first. When every tracked key still has a partial bucket, a new key is
// charged to one shared overflow bucket instead of getting a full bucket of
// its own, so a flood of new keys can neither reset a throttled key nor
// admit more than one extra burst.
import type { Request } from '@hapi/hapi';
import { domainError } from '../errors.ts';

const MAX_KEYS = 10_000;

/** The key a new key is charged to when every tracked key still has a partial bucket. */
export const OVERFLOW_KEY = '\u0000overflow';

export interface RateLimitOptions {
  /** Tokens added per second. */
  ratePerSecond: number;
  /** The most tokens a key holds: the requests admitted at once. */
  burst: number;
  /** The 429's message, given the whole seconds until a token is back. */
  message: (retryAfterSeconds: number) => string;
  /** Milliseconds of a monotonic or driven clock (default performance.now). */
  now?: () => number;
  /** Keys tracked at most (default 10,000); new keys past it share the overflow bucket. */
  maxKeys?: number;
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
  /** Insertion order is recency: the first key is the least recently used. */
  private readonly buckets = new Map<string, Bucket>();
  private readonly overflow: Bucket;
  private readonly options: RateLimitOptions;
  private readonly maxKeys: number;

  constructor(options: RateLimitOptions) {
    this.options = options;
    this.maxKeys = options.maxKeys ?? MAX_KEYS;
    this.overflow = { tokens: options.burst, at: this.now() };
  }

  /** Takes one token for `key`, or throws 429 RATE_LIMITED with Retry-After. */
  take(key: string): void {
    this.admit(key);
  }

  /** take(), returning the key it charged: `key`, or OVERFLOW_KEY when the map is full of partial buckets. */
  admit(key: string): string {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (bucket) {
      this.refill(bucket, now);
      this.buckets.delete(key); // re-inserted below: the map's order is recency
      this.buckets.set(key, bucket);
    } else {
      if (this.buckets.size >= this.maxKeys) this.evictRefilled(now);
      if (this.buckets.size < this.maxKeys) {
        bucket = { tokens: this.options.burst, at: now };
        this.buckets.set(key, bucket);
      } else {
        bucket = this.overflow;
        this.refill(bucket, now);
      }
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return bucket === this.overflow ? OVERFLOW_KEY : key;
    }
    throw rateLimited(this.options, bucket.tokens);
  }

  /** Keys tracked now (the overflow bucket not counted). */
  get size(): number {
    return this.buckets.size;
  }

  private now(): number {
    return this.options.now?.() ?? performance.now();
  }

  private refill(bucket: Bucket, now: number): void {
    bucket.tokens = Math.min(this.options.burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * this.options.ratePerSecond);
    bucket.at = now;
  }

  /**
   * Drops the least recently used keys whose bucket is full again, stopping
   * at the first that is not: every key is dropped at most once, so the work
   * is constant per request on average.
   */
  private evictRefilled(now: number): void {
    for (const [key, bucket] of this.buckets) {
      const tokens = bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * this.options.ratePerSecond;
      if (tokens < this.options.burst) return;
      this.buckets.delete(key);
    }
  }
}

/** The 429 RATE_LIMITED of a bucket holding `tokens` (< 1), with the whole seconds until one is back as Retry-After. */
export function rateLimited(options: Pick<RateLimitOptions, 'ratePerSecond' | 'message'>, tokens: number) {
  const retryAfter = Math.max(1, Math.ceil((1 - tokens) / options.ratePerSecond));
  const error = domainError(429, options.message(retryAfter), 'RATE_LIMITED');
  error.output.headers['Retry-After'] = String(retryAfter);
  return error;
}

/** The client's address: the first X-Forwarded-For entry when the deployment trusts its proxy, else the socket's. */
export function clientAddress(request: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = String(request.headers['x-forwarded-for'] ?? '').split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return request.info.remoteAddress || 'unknown';
}

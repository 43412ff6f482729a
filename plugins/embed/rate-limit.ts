// Token buckets per key (a client), in this process: `rate` tokens a second
// up to `burst`. Per process, not per cluster: N processes allow N times the
// rate (plugins/embed/README.md says why that is the trade-off chosen). The
// map is bounded: the least recently refilled keys go first.
import { domainError } from 'agent-platform/sdk';

const MAX_KEYS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly rate: number;
  private readonly burst: number;
  private readonly what: string;

  constructor(rate: number, burst: number, what: string) {
    this.rate = rate;
    this.burst = burst;
    this.what = what;
  }

  /** Takes one token for `key`, or throws 429 with Retry-After (whole seconds until one is back). */
  take(key: string, now = performance.now()): void {
    let bucket = this.buckets.get(key);
    if (bucket) {
      bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
      bucket.at = now;
      this.buckets.delete(key);
    } else {
      if (this.buckets.size >= MAX_KEYS) this.buckets.delete(this.buckets.keys().next().value!);
      bucket = { tokens: this.burst, at: now };
    }
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate));
      const error = domainError(429, `Too many ${this.what}: retry in ${retryAfter} s`, 'RATE_LIMITED');
      error.output.headers['Retry-After'] = String(retryAfter);
      throw error;
    }
    bucket.tokens -= 1;
  }
}

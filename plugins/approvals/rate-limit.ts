// A fixed-window rate limit per client address for the public decision link
// pages (in this process: each process admits its own share).
import { domainError } from 'agent-platform/sdk';

const WINDOW_MS = 60_000;
const MAX_TRACKED = 10_000;

export class LinkRateLimit {
  private readonly perMinute: number;
  private window = 0;
  private counts = new Map<string, number>();

  constructor(perMinute: number) {
    this.perMinute = perMinute;
  }

  /** Counts a request from `address`; a 429 with Retry-After past the limit. */
  take(address: string, now = Date.now()): void {
    const window = Math.floor(now / WINDOW_MS);
    if (window !== this.window || this.counts.size > MAX_TRACKED) {
      this.window = window;
      this.counts = new Map();
    }
    const count = (this.counts.get(address) ?? 0) + 1;
    this.counts.set(address, count);
    if (count > this.perMinute) {
      const error = domainError(429, 'Too many requests to decision links; retry later', 'RATE_LIMITED');
      error.output.headers['Retry-After'] = String(Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
      throw error;
    }
  }
}

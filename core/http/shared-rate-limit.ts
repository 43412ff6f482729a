// Rate limits that hold across every process on one PostgreSQL
// (core.rateLimits): each limiter is this process's token bucket
// (rate-limit.ts) in front of one shared bucket per key in the
// platform_rate_limits table (sql/0007_shared_limits.sql), with the same rate
// and burst. A request first spends a local token, which costs nothing and
// refuses a key this process alone has throttled without a database write.
// Then it spends a shared token, which a process takes in batches: one upsert
// takes up to a tenth of the burst (at least 1, at most 100) and the process
// spends them on the key's next requests within LEASE_MS, after which what is
// left is dropped, never given back. A key with a small burst (an address's
// few requests a minute) takes one token per upsert; a hot key (a client's
// manifest, 1 000 a second) one upsert per batch. Every admitted request
// spent a token taken from the shared bucket, so all processes together never
// admit more than the limit; a process may refuse while tokens sit in another
// process's batch (at most a tenth of the burst per process, for LEASE_MS).
// A request refused by the shared bucket has spent its local token (it was an
// attempt all the same).
//
// Bounds: the local map is the rate-limit module's (a throttled key is never
// forgotten; past its size new keys share the overflow bucket), and a key
// charged to the local overflow bucket is charged to the shared overflow key
// too, so the table holds at most the keys the processes track; the batches
// of a process are at most as many as its tracked keys. A row whose bucket is
// full again is the same as none: a sweep in each process deletes those every
// SWEEP_INTERVAL_MS.
//
// On the embedded database (one process) the local bucket is the whole limit.
// When the shared upsert fails (the database unreachable), the local bucket
// decides alone and the failure is logged once a minute.
import type pg from 'pg';
import type { Logger } from 'pino';
import { RateLimiter, rateLimited, type RateLimitOptions } from './rate-limit.ts';

const SWEEP_INTERVAL_MS = 30_000;
const LEASE_MS = 1_000;
const MAX_BATCH = 100;
const FAILURE_LOG_INTERVAL_MS = 60_000;

/** A limiter of core.rateLimits: take() spends one token of the key, or rejects with 429 RATE_LIMITED and Retry-After. */
export interface SharedRateLimiter {
  take(key: string): Promise<void>;
}

export interface RateLimitsApi {
  /**
   * A limiter named `name` (e.g. `forms.public`: processes share buckets by
   * name and key, so one name is one limit). `options.now` must be epoch
   * milliseconds (default: the core clock), the same in every process.
   */
  limiter(name: string, options: RateLimitOptions): SharedRateLimiter;
}

// One statement: the bucket is refilled for the time since its last take (at
// most `burst`), and up to $6 whole tokens are taken (`granted`, 0 when none is
// there; then `tokens` is what is left, below 1).
const TAKE = `
  INSERT INTO platform_rate_limits AS b (limiter, key, tokens, at, full_at, granted)
  VALUES ($1, $2, $3::float8 - $6::int, $5::float8, $5::float8 + $6::int * 1000 / $4::float8, $6::int)
  ON CONFLICT (limiter, key) DO UPDATE SET (tokens, at, full_at, granted) = (
    SELECT s.refilled - g.n, s.at, s.at + ($3::float8 - (s.refilled - g.n)) * 1000 / $4::float8, g.n
    FROM (SELECT least($3::float8, b.tokens + greatest(0, $5::float8 - b.at) * $4::float8 / 1000) AS refilled,
                 greatest(b.at, $5::float8) AS at) AS s,
         LATERAL (SELECT least($6::int, floor(s.refilled))::int AS n) AS g)
  RETURNING granted, tokens`;

const SWEEP = 'DELETE FROM platform_rate_limits WHERE full_at <= $1';

export class SharedRateLimits implements RateLimitsApi {
  private readonly pool: pg.Pool | undefined;
  private readonly logger: Logger;
  private readonly defaultNow: () => number;
  private sweepTimer: NodeJS.Timeout | undefined;
  private lastFailureLog = -Infinity;

  /** `pool` undefined: local buckets only (the embedded database, or a CLI command). */
  constructor(pool: pg.Pool | undefined, logger: Logger, now: () => number) {
    this.pool = pool;
    this.logger = logger;
    this.defaultNow = now;
  }

  limiter(name: string, options: RateLimitOptions): SharedRateLimiter {
    const now = options.now ?? this.defaultNow;
    const local = new RateLimiter({ ...options, now });
    const pool = this.pool;
    if (!pool) return { take: async (key) => local.take(key) };
    this.startSweeping();
    const batch = Math.max(1, Math.min(MAX_BATCH, Math.floor(options.burst / 10)));
    const maxLeases = options.maxKeys ?? 10_000;
    /** Shared tokens this process took and has not spent yet, by key; insertion order is age. */
    const leases = new Map<string, { tokens: number; until: number }>();
    return {
      take: async (key) => {
        // PostgreSQL's text holds no NUL, which keys use to join their parts (and the overflow key starts with).
        const charged = local.admit(key).replaceAll('\u0000', '\u0001');
        const at = now();
        const lease = leases.get(charged);
        if (lease && lease.until > at && lease.tokens >= 1) {
          lease.tokens -= 1;
          return;
        }
        let row: { granted: number; tokens: number } | undefined;
        try {
          // A named statement: planned once per connection, not on every public request.
          ({ rows: [row] } = await pool.query<{ granted: number; tokens: number }>({ name: 'platform-rate-limit-take', text: TAKE, values: [name, charged, options.burst, options.ratePerSecond, at, batch] }));
        } catch (err) {
          this.failed(err);
          return;
        }
        if (!row || row.granted < 1) throw rateLimited(options, row?.tokens ?? 0);
        leases.delete(charged);
        if (row.granted > 1) {
          if (leases.size >= maxLeases) leases.delete(leases.keys().next().value!);
          leases.set(charged, { tokens: row.granted - 1, until: at + LEASE_MS });
        }
      },
    };
  }

  /** Deletes the rows whose bucket is full again (any process may: they are the same as no row). */
  async sweep(): Promise<number> {
    if (!this.pool) return 0;
    return (await this.pool.query(SWEEP, [this.defaultNow()])).rowCount ?? 0;
  }

  stop(): void {
    clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }

  private startSweeping(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setInterval(() => void this.sweep().catch((err) => this.failed(err)), SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  private failed(err: unknown): void {
    const at = performance.now();
    if (at - this.lastFailureLog < FAILURE_LOG_INTERVAL_MS) return;
    this.lastFailureLog = at;
    this.logger.warn({ err }, 'rate limits: the shared buckets are unreachable; each process limits on its own meanwhile');
  }
}

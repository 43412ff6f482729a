-- Token buckets of the public rate limits, shared by every process on this
-- database (core/http/shared-rate-limit.ts): one row per limiter and key,
-- taken by one upsert per request, or per batch of a key's requests
-- (granted: the tokens the last upsert took). Times are the processes' epoch
-- milliseconds; full_at is when the bucket is full again, after which the row
-- is the same as none and a sweep deletes it. UNLOGGED: a crash empties it,
-- which only resets the limits.
CREATE UNLOGGED TABLE platform_rate_limits (
  limiter text NOT NULL,
  key text NOT NULL,
  tokens double precision NOT NULL,
  at double precision NOT NULL,
  full_at double precision NOT NULL,
  granted integer NOT NULL,
  PRIMARY KEY (limiter, key)
);
CREATE INDEX platform_rate_limits_full_idx ON platform_rate_limits (full_at);

// The pure parts of webhook authentication: HMAC signatures, timestamp
// freshness and constant-time secret comparison. No I/O, so the CLI's `sign`
// command, the tests and the benchmark use exactly what the server checks.
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/** Both the freshness window of X-Webhook-Timestamp (past or future) and of the event receiver. */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;
const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;
const UNIX_SECONDS = /^\d{1,15}$/;

/** `sha256=<hex>`: HMAC-SHA256 of the raw body bytes, keyed with the secret's UTF-8 bytes. */
export function signBody(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Constant-time check of an X-Webhook-Signature header; a malformed or absent header never matches. */
export function signatureMatches(secret: string, body: Buffer, header: unknown): boolean {
  const match = typeof header === 'string' ? SIGNATURE.exec(header.trim()) : null;
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(match[1], 'hex'));
}

export type Freshness = 'fresh' | 'too_old' | 'in_future';

/**
 * X-Webhook-Timestamp must be Unix seconds within the tolerance of `nowMs`.
 * A missing or unparsable timestamp is treated as the epoch, i.e. "too old":
 * the spec's error table has only the two texts for all four causes.
 */
export function freshness(header: unknown, nowMs: number): Freshness {
  const text = typeof header === 'string' ? header.trim() : '';
  const seconds = UNIX_SECONDS.test(text) ? Number(text) : 0;
  const skew = seconds - Math.floor(nowMs / 1000);
  if (skew > TIMESTAMP_TOLERANCE_SECONDS) return 'in_future';
  if (skew < -TIMESTAMP_TOLERANCE_SECONDS) return 'too_old';
  return 'fresh';
}

/** Equality of two secrets in time independent of where they differ or of their lengths. */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The headers a sender of a signed-resume request must send with `body` (for operators and tests). */
export function signedHeaders(secret: string, body: Buffer | string, options: { id?: string; timestamp?: number } = {}) {
  return {
    'Content-Type': 'application/json',
    'X-Webhook-Signature': signBody(secret, body),
    'X-Webhook-Timestamp': String(options.timestamp ?? Math.floor(Date.now() / 1000)),
    'X-Webhook-Id': options.id ?? randomUUID(),
  };
}

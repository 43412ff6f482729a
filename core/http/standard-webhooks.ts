// Standard Webhooks (https://www.standardwebhooks.com): a message carries
// `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`,
// space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. The id and
// timestamp are signed, so a receiver that refuses stale timestamps and ids
// it has seen refuses a replayed request. One implementation for every
// receiver of the platform (the workflow resume webhook, the pattern
// registry's reconcile); no I/O, so senders, tests and receivers share it.
//
// A key is written either as `whsec_<base64 of the key bytes>` (what Standard
// Webhooks libraries take) or as any other text, whose UTF-8 bytes are the key.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/** How far a timestamp may be from now, past or future. */
export const STANDARD_WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

const PREFIX = 'whsec_';
const SIGNATURE = /^v1,([A-Za-z0-9+/]{43}=)$/;
const UNIX_SECONDS = /^\d{1,15}$/;

/** The HMAC key of a secret as written: `whsec_<base64>` is the key bytes; any other text is its own UTF-8 bytes. */
export function webhookKey(secret: string): Buffer {
  return secret.startsWith(PREFIX) ? Buffer.from(secret.slice(PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** The `whsec_…` form of a secret: what a Standard Webhooks library is configured with. */
export function standardSecretOf(secret: string): string {
  return PREFIX + webhookKey(secret).toString('base64');
}

function mac(key: Buffer, id: string, timestamp: string, body: Buffer | string): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
}

/** `v1,<base64>`: the webhook-signature of a message. */
export function signStandardWebhook(secret: string | Buffer, id: string, timestamp: string | number, body: Buffer | string): string {
  const key = typeof secret === 'string' ? webhookKey(secret) : secret;
  return `v1,${mac(key, id, String(timestamp), body).toString('base64')}`;
}

export interface StandardWebhookMessage {
  /** The HMAC that matched (a replay record may be made from it). */
  mac: Buffer;
  /** The signed headers, as sent (unchecked: see webhookTimestampFreshness). */
  id: string | undefined;
  timestamp: string | undefined;
}

/**
 * The message when one of the header's signatures (`v1,<base64>`; other
 * versions are skipped) is the HMAC of `id.timestamp.body` under `key`,
 * compared in constant time; null when none is or the header is absent.
 */
export function verifyStandardWebhook(key: Buffer, body: Buffer, header: (name: string) => string | undefined): StandardWebhookMessage | null {
  const signatures = header('webhook-signature');
  if (signatures === undefined) return null;
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const expected = mac(key, id ?? '', timestamp ?? '', body);
  for (const candidate of signatures.split(' ')) {
    const match = SIGNATURE.exec(candidate);
    if (match && timingSafeEqual(expected, Buffer.from(match[1]!, 'base64'))) return { mac: expected, id, timestamp };
  }
  return null;
}

export type Freshness = 'fresh' | 'too_old' | 'in_future';

/** A Unix-seconds timestamp against `nowMs`; a missing or unparsable one is the epoch ("too old"). */
export function webhookTimestampFreshness(header: unknown, nowMs: number, toleranceSeconds = STANDARD_WEBHOOK_TOLERANCE_SECONDS): Freshness {
  const text = typeof header === 'string' ? header.trim() : '';
  const seconds = UNIX_SECONDS.test(text) ? Number(text) : 0;
  const skew = seconds - Math.floor(nowMs / 1000);
  if (skew > toleranceSeconds) return 'in_future';
  if (skew < -toleranceSeconds) return 'too_old';
  return 'fresh';
}

/** The headers of a message with `body` (`secret` as text or `whsec_…`): what a sender sends. */
export function standardWebhookHeaders(secret: string, body: Buffer | string, options: { id?: string; timestamp?: number } = {}) {
  const id = options.id ?? `msg_${randomUUID()}`;
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  return {
    'Content-Type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': signStandardWebhook(secret, id, timestamp, body),
  };
}

// The pure parts of webhook authentication: HMAC signatures (the
// X-Webhook-* scheme here; the Standard Webhooks scheme is the SDK's, shared
// with every receiver of the platform), timestamp freshness and
// constant-time secret comparison. No I/O, so the CLI's `sign` command, the
// tests and the benchmark use exactly what the server checks.
//
// One key serves both schemes: the UTF-8 bytes of the tenant's signing secret
// (64 hex characters). Standard Webhooks libraries take a key as
// `whsec_<base64 of the key bytes>`, so the same secret is given to them as
// standardSecretOf(secret); signingKey() reads either form back.
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  signStandardWebhook, STANDARD_WEBHOOK_TOLERANCE_SECONDS, standardSecretOf, standardWebhookHeaders, verifyStandardWebhook, webhookKey,
  webhookTimestampFreshness, type Freshness,
} from 'agent-platform/sdk';

/** Both the freshness window of X-Webhook-Timestamp (past or future) and of the event receiver. */
export const TIMESTAMP_TOLERANCE_SECONDS = STANDARD_WEBHOOK_TOLERANCE_SECONDS;
const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;

/** The HMAC key of a secret as written: `whsec_<base64>` is the Standard Webhooks form of the key bytes; any other text is its own UTF-8 bytes. */
export const signingKey = webhookKey;

/** The Standard Webhooks form (`whsec_…`) of a signing secret: what a Standard Webhooks library is configured with. */
export { standardSecretOf, type Freshness };

/** `sha256=<hex>`: HMAC-SHA256 of the raw body bytes, keyed with the secret's UTF-8 bytes. */
export function signBody(secret: string | Buffer, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** `v1,<base64>`: the webhook-signature of a Standard Webhooks message. */
export const signStandard = signStandardWebhook;

/** The scheme a signed-resume request uses: Standard Webhooks when it carries `webhook-signature`, else X-Webhook-*. */
export type SignatureScheme = 'x-webhook' | 'standard';

export interface VerifiedSignature {
  scheme: SignatureScheme;
  /** The HMAC that matched (what the replay record is made from). */
  mac: Buffer;
  /** The id and timestamp headers of that scheme (unchecked). */
  id: string | undefined;
  timestamp: string | undefined;
}

type HeaderReader = (name: string) => string | undefined;

/**
 * Verifies a request under its scheme, in constant time per candidate, and
 * returns the matching HMAC, or null when nothing matches. `key` is the HMAC
 * key (the UTF-8 bytes of the tenant's secret). Under Standard Webhooks the
 * header may list several space-separated signatures (`v1,<base64>`; other
 * versions are skipped); the id and timestamp are part of what is signed.
 */
export function verifySignature(key: Buffer, body: Buffer, header: HeaderReader): VerifiedSignature | null {
  if (header('webhook-signature') !== undefined) {
    const message = verifyStandardWebhook(key, body, header);
    return message && { scheme: 'standard', ...message };
  }
  const match = SIGNATURE.exec(header('x-webhook-signature') ?? '');
  if (!match) return null;
  const expected = createHmac('sha256', key).update(body).digest();
  if (!timingSafeEqual(expected, Buffer.from(match[1], 'hex'))) return null;
  return { scheme: 'x-webhook', mac: expected, id: header('x-webhook-id'), timestamp: header('x-webhook-timestamp') };
}

/**
 * X-Webhook-Timestamp must be Unix seconds within the tolerance of `nowMs`.
 * A missing or unparsable timestamp is treated as the epoch, i.e. "too old":
 * the error table has only the two texts for all four causes.
 */
export function freshness(header: unknown, nowMs: number): Freshness {
  return webhookTimestampFreshness(header, nowMs, TIMESTAMP_TOLERANCE_SECONDS);
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
    'X-Webhook-Signature': signBody(signingKey(secret), body),
    'X-Webhook-Timestamp': String(options.timestamp ?? Math.floor(Date.now() / 1000)),
    'X-Webhook-Id': options.id ?? randomUUID(),
  };
}

/** The same request's headers under Standard Webhooks (`secret` as the raw secret or `whsec_…`). */
export const standardSignedHeaders = standardWebhookHeaders;

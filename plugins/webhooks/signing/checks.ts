// The header checks both receivers share, as functions that throw the
// webhook errors: freshness of X-Webhook-Timestamp and the X-Webhook-Id key.
import { webhookErrors } from '../errors.ts';
import { freshness } from './signing.ts';

/** How long an X-Webhook-Id blocks a repeat: 10 minutes. */
export const IDEMPOTENCY_WINDOW_SECONDS = 10 * 60;
const MAX_ID_LENGTH = 255;
const PRINTABLE = /^[\x20-\x7e]+$/;

export type Headers = Record<string, unknown>;

/** A header's value, trimmed; absent and empty are the same. */
export function headerOf(headers: Headers, name: string): string | undefined {
  const raw = headers[name.toLowerCase()];
  const first: unknown = Array.isArray(raw) ? raw[0] : raw;
  const value = typeof first === 'string' ? first.trim() : '';
  return value ? value : undefined;
}

export function assertFresh(timestamp: string | undefined, nowMs: number): void {
  const verdict = freshness(timestamp, nowMs);
  if (verdict === 'too_old') throw webhookErrors.timestampTooOld();
  if (verdict === 'in_future') throw webhookErrors.timestampInFuture();
}

/** `application/json`, parameters (charset) allowed, in any letter case. */
export function isJsonContentType(headers: Headers): boolean {
  const type = headerOf(headers, 'content-type')?.split(';')[0].trim().toLowerCase();
  return type === 'application/json';
}

/** The idempotency key (X-Webhook-Id, or webhook-id under Standard Webhooks): required, printable ASCII, at most 255 characters (it is stored). */
export function webhookIdOf(headers: Headers, name = 'x-webhook-id'): string {
  const id = headerOf(headers, name);
  if (!id) throw webhookErrors.missingId();
  if (id.length > MAX_ID_LENGTH || !PRINTABLE.test(id)) throw webhookErrors.invalidId(MAX_ID_LENGTH);
  return id;
}

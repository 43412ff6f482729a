// One-time decision links: `<publicUrl>/api/approvals/links/<token>`, where
// the token is `<payload>.<signature>` (base64url), the payload
// {t: tenant, c: case, a: approver, d: approve|reject, e: expiry (Unix s)}
// and the signature an HMAC-SHA256 under a key derived from the master key
// for this purpose only. A link is bound to one case, one approver and one
// decision, expires with the case, and is used once (approval_link_uses).
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface LinkClaims {
  t: string;
  c: string;
  a: string;
  d: 'approve' | 'reject';
  e: number;
}

export const LINK_KEY_PURPOSE = 'approvals-decision-links';

const b64 = (buffer: Buffer) => buffer.toString('base64url');
const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

export function signLink(key: Buffer, claims: LinkClaims): string {
  const payload = b64(Buffer.from(JSON.stringify(claims)));
  return `${payload}.${b64(mac(key, payload))}`;
}

/** The claims of a well-signed token, or undefined (wrong signature, malformed). Expiry is the caller's check. */
export function verifyLink(key: Buffer, token: string): LinkClaims | undefined {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = mac(key, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LinkClaims;
    const valid = typeof claims.t === 'string' && typeof claims.c === 'string' && typeof claims.a === 'string'
      && (claims.d === 'approve' || claims.d === 'reject') && Number.isInteger(claims.e);
    return valid ? claims : undefined;
  } catch {
    return undefined;
  }
}

export function linkUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/api/approvals/links/${token}`;
}

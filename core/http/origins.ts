// Origins a tenant allowlists (embed configurations, a tenant's public
// origins): an exact `http` or `https` origin, scheme, host and optional port.
// Paths, queries, fragments, credentials, wildcards and other schemes are
// refused, naming the entry. What is accepted is stored in the form browsers
// send in `Origin`: lowercase host, IDN as punycode, default port dropped, no
// trailing slash (a bare `/` is not a path: `https://shop.example/` is
// `https://shop.example`). Localhost and loopback hosts only where the
// deployment allows them (EMBED_ALLOW_LOCALHOST_ORIGINS).
import { badRequest } from '../errors.ts';

export const MAX_ORIGINS = 100;

export type OriginProblem = { ok: true; origin: string } | { ok: false; reason: string };

const SCHEME_AND_REST = /^(https?):\/\/([^/?#]*)(.*)$/i;

/** Whether a host is localhost or loopback (localhost, *.localhost, 127.0.0.0/8, [::1]). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]' || host === '[0:0:0:0:0:0:0:1]';
}

/** One configured origin, checked and normalized. */
export function parseOrigin(raw: string, allowLocalhost: boolean): OriginProblem {
  const text = raw.trim();
  const parts = SCHEME_AND_REST.exec(text);
  if (!parts) return { ok: false, reason: 'must start with http:// or https://' };
  const [, , authority, rest] = parts;
  if (rest !== '' && rest !== '/') {
    if (rest.startsWith('?')) return { ok: false, reason: 'must not have a query string' };
    if (rest.startsWith('#')) return { ok: false, reason: 'must not have a fragment' };
    return { ok: false, reason: 'must not have a path' };
  }
  if (authority === '') return { ok: false, reason: 'has no host' };
  if (authority.includes('@')) return { ok: false, reason: 'must not carry credentials' };
  if (authority.includes('*')) return { ok: false, reason: 'must not use wildcards: list each origin' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'is not a valid origin' };
  }
  if (url.hostname === '' || url.origin === 'null') return { ok: false, reason: 'is not a valid origin' };
  if (!allowLocalhost && isLoopbackHost(url.hostname)) {
    return { ok: false, reason: 'is a localhost origin (allowed only with EMBED_ALLOW_LOCALHOST_ORIGINS=true)' };
  }
  return { ok: true, origin: url.origin };
}

/** The configured list (the body's `field`), normalized and without duplicates; a 400 INVALID_ORIGIN naming the first bad entry. */
export function parseOrigins(list: string[], allowLocalhost: boolean, field = 'allowed_origins'): string[] {
  const seen = new Set<string>();
  for (const entry of list) {
    const parsed = parseOrigin(entry, allowLocalhost);
    if (!parsed.ok) throw badRequest(`${field}: "${entry.slice(0, 200)}" ${parsed.reason}`, 'INVALID_ORIGIN');
    seen.add(parsed.origin);
  }
  if (seen.size > MAX_ORIGINS) throw badRequest(`${field}: at most ${MAX_ORIGINS} origins`, 'INVALID_ORIGIN');
  return [...seen];
}

/**
 * The `Origin` header of a request, normalized like configured origins
 * (loopback allowed here: whether it may pass is the allowlist's business);
 * undefined when absent, null when malformed (`null`, a path, another scheme).
 */
export function requestOrigin(header: unknown): string | undefined | null {
  if (header === undefined || header === '') return undefined;
  if (typeof header !== 'string') return null;
  // A page sends the same Origin on every request: parsed once (URL parsing is a good part of a manifest read).
  const known = seenOrigins.get(header);
  if (known !== undefined) return known;
  const parsed = parseOrigin(header, true);
  const origin = parsed.ok ? parsed.origin : null;
  if (seenOrigins.size >= MAX_SEEN_ORIGINS) seenOrigins.clear();
  seenOrigins.set(header, origin);
  return origin;
}

const MAX_SEEN_ORIGINS = 10_000;
const seenOrigins = new Map<string, string | null>();

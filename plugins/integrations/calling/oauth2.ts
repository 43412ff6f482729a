// OAuth 2.0 client-credentials tokens (RFC 6749 4.4) for oauth2 specs: the
// credential is `client_id:client_secret`, sent with HTTP Basic to the token
// URL of the spec's security scheme. Tokens are kept in this process until
// shortly before they expire (concurrent calls share one fetch), and dropped
// when the API answers 401 with one.
import { createHash } from 'node:crypto';
import { domainError } from 'agent-platform/sdk';
import type { HttpClient } from './http-client.ts';

const MAX_TOKENS = 1000;
const DEFAULT_LIFETIME_S = 3600;

interface Cached {
  token: string;
  expiresAt: number;
}

export interface TokenRequest {
  tokenUrl: string;
  /** `client_id:client_secret`. */
  credential: string;
  scopes: string[];
  specName: string;
}

export interface TokenCache {
  token(request: TokenRequest): Promise<{ token: string; key: string }>;
  invalidate(key: string): void;
}

const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');

export function createTokenCache(http: HttpClient, now: () => number = Date.now): TokenCache {
  const cache = new Map<string, Cached>();
  const inflight = new Map<string, Promise<Cached>>();

  async function fetchToken(request: TokenRequest): Promise<Cached> {
    const colon = request.credential.indexOf(':');
    if (colon <= 0) {
      throw domainError(422, `The oauth2 credential of "${request.specName}" must be client_id:client_secret`, 'AUTH_INVALID');
    }
    const clientId = request.credential.slice(0, colon);
    const clientSecret = request.credential.slice(colon + 1);
    const basic = Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString('base64');
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (request.scopes.length > 0) form.set('scope', request.scopes.join(' '));
    const url = new URL(request.tokenUrl);
    const started = now();
    const response = await http({
      method: 'POST',
      url,
      headers: new Headers({ authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }),
      body: form.toString(),
      credentialHeaders: ['authorization'],
    });
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(new TextDecoder().decode(response.bytes)) as Record<string, unknown>;
    } catch {
      // reported below
    }
    if (response.status < 200 || response.status >= 300 || typeof body.access_token !== 'string') {
      const reason = typeof body.error === 'string' ? ` (${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''})` : '';
      throw domainError(502, `The oauth2 token endpoint ${url.origin} of "${request.specName}" answered ${response.status}${reason}: check the client credentials`, 'OAUTH2_TOKEN_FAILED');
    }
    const lifetime = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : Number(body.expires_in) > 0 ? Number(body.expires_in) : DEFAULT_LIFETIME_S;
    // Renew a little early: the token must still be valid when the API reads it.
    const margin = Math.min(30, lifetime * 0.1);
    return { token: body.access_token, expiresAt: started + (lifetime - margin) * 1000 };
  }

  return {
    async token(request) {
      const key = createHash('sha256').update(`${request.tokenUrl}\u0000${request.credential}\u0000${[...request.scopes].sort().join(' ')}`).digest('base64url');
      const cached = cache.get(key);
      if (cached && cached.expiresAt > now()) return { token: cached.token, key };
      let pending = inflight.get(key);
      if (!pending) {
        pending = fetchToken(request).finally(() => inflight.delete(key));
        inflight.set(key, pending);
      }
      const fresh = await pending;
      cache.delete(key);
      cache.set(key, fresh);
      if (cache.size > MAX_TOKENS) cache.delete(cache.keys().next().value!);
      return { token: fresh.token, key };
    },
    invalidate(key) {
      cache.delete(key);
    },
  };
}

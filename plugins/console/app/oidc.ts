// Sign-in with the OIDC issuer (OIDC_ISSUER_URL) from the browser: the
// authorization code flow with PKCE (S256). Before the redirect, the state,
// the nonce and the code verifier are kept in sessionStorage; on the way back
// (/console/callback) the state must match, the code is exchanged at the
// token endpoint, and the ID token must carry the nonce, the issuer and this
// client. The platform verifies the token it is then sent (its JWKS).
export interface OidcConfig { issuer: string; client_id: string }

interface Pending { state: string; nonce: string; verifier: string; tokenEndpoint: string; issuer: string; clientId: string }

const KEY = 'console.oidc';

export const redirectUri = () => `${location.origin}/console/callback`;

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const randomString = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

async function challengeOf(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

async function discover(issuer: string): Promise<{ authorization_endpoint: string; token_endpoint: string; issuer?: string }> {
  const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, { credentials: 'omit' });
  if (!response.ok) throw new Error(`discovery answered ${response.status}`);
  const document = await response.json() as { authorization_endpoint?: string; token_endpoint?: string; issuer?: string };
  if (!document.authorization_endpoint || !document.token_endpoint) throw new Error('the discovery document names no authorization or token endpoint');
  return document as { authorization_endpoint: string; token_endpoint: string; issuer?: string };
}

/** Leaves for the issuer's authorization endpoint. */
export async function startOidc(config: OidcConfig): Promise<void> {
  const found = await discover(config.issuer);
  const pending: Pending = {
    state: randomString(), nonce: randomString(), verifier: randomString(),
    tokenEndpoint: found.token_endpoint, issuer: found.issuer ?? config.issuer, clientId: config.client_id,
  };
  sessionStorage.setItem(KEY, JSON.stringify(pending));
  const url = new URL(found.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code', client_id: config.client_id, redirect_uri: redirectUri(), scope: 'openid profile',
    state: pending.state, nonce: pending.nonce, code_challenge: await challengeOf(pending.verifier), code_challenge_method: 'S256',
  }).toString();
  location.assign(url.toString());
}

function claimsOf(jwt: string): Record<string, unknown> {
  const part = jwt.split('.')[1];
  if (!part) throw new Error('the ID token is not a JWT');
  const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
  return JSON.parse(decodeURIComponent(Array.from(json, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''))) as Record<string, unknown>;
}

const sameIssuer = (a: unknown, b: string) => typeof a === 'string' && a.replace(/\/$/, '') === b.replace(/\/$/, '');

/**
 * Completes the flow from the callback's query: the bearer tokens to try, in
 * order (the access token when it is a JWT, then the ID token). Throws on a
 * state or nonce mismatch, an error answer, or a failed exchange.
 */
export async function completeOidc(params: URLSearchParams): Promise<string[]> {
  const raw = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  const pending = raw ? JSON.parse(raw) as Pending : null;
  if (!pending) throw new Error('no sign-in was started in this tab');
  if (params.get('state') !== pending.state) throw new Error('the answer does not match the sign-in this tab started (state)');
  const error = params.get('error');
  if (error) throw new Error(params.get('error_description') || error);
  const code = params.get('code');
  if (!code) throw new Error('the answer carries no code');
  const response = await fetch(pending.tokenEndpoint, {
    method: 'POST', credentials: 'omit',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri(), client_id: pending.clientId, code_verifier: pending.verifier }),
  });
  const tokens = await response.json().catch(() => ({})) as { id_token?: string; access_token?: string; error?: string; error_description?: string };
  if (!response.ok) throw new Error(tokens.error_description || tokens.error || `the token endpoint answered ${response.status}`);
  if (!tokens.id_token) throw new Error('the token endpoint returned no ID token');
  const claims = claimsOf(tokens.id_token);
  if (claims.nonce !== pending.nonce) throw new Error('the ID token does not carry this sign-in\'s nonce');
  if (!sameIssuer(claims.iss, pending.issuer)) throw new Error('the ID token comes from another issuer');
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(pending.clientId)) throw new Error('the ID token is not meant for this console');
  const candidates: string[] = [];
  if (tokens.access_token && tokens.access_token.split('.').length === 3) candidates.push(tokens.access_token);
  candidates.push(tokens.id_token);
  return candidates;
}

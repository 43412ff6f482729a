// A small OIDC provider on loopback for the console's sign-in test: the
// discovery document, an authorization endpoint that signs the configured
// person in at once and redirects back with a code, a token endpoint that
// checks the PKCE verifier (S256), the client and the redirect URI, and the
// JWKS (RS256). It answers CORS like a real issuer does for a browser app.
import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import type { Tap } from 'agent-platform/sdk/testing';

export interface OidcProvider {
  issuer: string;
  /** Every authorization request's query, in order. */
  authorizations: URLSearchParams[];
  /** Every token request's form, and whether it was accepted. */
  tokenRequests: { form: URLSearchParams; accepted: boolean }[];
}

interface Grant { challenge: string; method: string; clientId: string; redirectUri: string; nonce: string }

export async function oidcProvider(t: Tap, settings: { clientId: string; audience: string; sub: string; organizations: Record<string, { roles: string[] }> }): Promise<OidcProvider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const grants = new Map<string, Grant>();
  const provider: OidcProvider = { issuer: '', authorizations: [], tokenRequests: [] };
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type, accept', 'access-control-allow-methods': 'GET, POST' };
  const json = (res: http.ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...cors }).end(JSON.stringify(body));
  const sign = (claims: Record<string, unknown>, audience: string) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
    .setIssuer(provider.issuer).setSubject(settings.sub).setAudience(audience).setIssuedAt().setExpirationTime('10m').sign(privateKey);

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', provider.issuer);
    if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer: provider.issuer, authorization_endpoint: `${provider.issuer}/authorize`, token_endpoint: `${provider.issuer}/token`,
        jwks_uri: `${provider.issuer}/jwks`, response_types_supported: ['code'], code_challenge_methods_supported: ['S256'],
        subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (url.pathname === '/jwks') return json(res, 200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      provider.authorizations.push(q);
      const code = randomBytes(16).toString('hex');
      grants.set(code, { challenge: q.get('code_challenge') ?? '', method: q.get('code_challenge_method') ?? '', clientId: q.get('client_id') ?? '', redirectUri: q.get('redirect_uri') ?? '', nonce: q.get('nonce') ?? '' });
      const back = new URL(q.get('redirect_uri')!);
      back.search = new URLSearchParams({ code, state: q.get('state') ?? '' }).toString();
      return void res.writeHead(302, { location: back.toString() }).end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', async () => {
        const form = new URLSearchParams(body);
        const grant = grants.get(form.get('code') ?? '');
        grants.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const accepted = !!grant && grant.method === 'S256' && form.get('grant_type') === 'authorization_code'
          && createHash('sha256').update(verifier).digest('base64url') === grant.challenge
          && form.get('client_id') === grant.clientId && grant.clientId === settings.clientId && form.get('redirect_uri') === grant.redirectUri;
        provider.tokenRequests.push({ form, accepted });
        if (!accepted) return json(res, 400, { error: 'invalid_grant', error_description: 'code, verifier, client or redirect URI do not match' });
        json(res, 200, {
          token_type: 'Bearer', expires_in: 600,
          access_token: await sign({ organizations: settings.organizations }, settings.audience),
          id_token: await sign({ nonce: grant!.nonce, name: settings.sub }, settings.clientId),
        });
      });
      return;
    }
    res.writeHead(404, cors).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  provider.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return provider;
}

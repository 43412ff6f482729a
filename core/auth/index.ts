// hapi auth schemes and strategies, so that routes just name one:
//   'bearer'  — super-admin token, platform/OIDC user JWTs, service tokens
//   'api-key' — X-API-Key, bound to one client of one tenant
import Boom from '@hapi/boom';
import type { Server, Request, ResponseToolkit } from '@hapi/hapi';
import { secretMatches } from '../secrets.ts';
import { unauthorized } from '../errors.ts';
import type { TokenService } from './tokens.ts';
import type { Principal } from './principal.ts';

export type ApiKeyResolver = (key: string) => Promise<Principal | undefined>;

export interface AuthDeps {
  tokens: TokenService;
  adminTokenHash: string;
  resolveApiKey: () => ApiKeyResolver | undefined;
}

/**
 * Verifies the credentials the two strategies read. Shared by the hapi
 * schemes and the GraphQL WebSocket (whose credentials come from its
 * connection parameters), so that both accept exactly the same callers.
 */
export interface Authenticator {
  /** An Authorization header's principal; 401 INVALID_TOKEN when it is not "Bearer <valid token>". */
  bearer(header: string): Promise<Principal>;
  /** An X-API-Key's principal; 401 INVALID_API_KEY when the key is unknown. */
  apiKey(key: string): Promise<Principal>;
}

export function createAuthenticator(deps: AuthDeps): Authenticator {
  return {
    async bearer(header) {
      const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
      if (!token) throw unauthorized('Authorization header must be "Bearer <token>"', 'INVALID_TOKEN');
      if (token.split('.').length === 3) return deps.tokens.verify(token);
      if (secretMatches(token, deps.adminTokenHash)) return { kind: 'super_admin', sub: 'super-admin' };
      throw unauthorized('Invalid token', 'INVALID_TOKEN');
    },
    async apiKey(key) {
      const resolver = deps.resolveApiKey();
      const principal = resolver ? await resolver(key) : undefined;
      if (!principal) throw unauthorized('Invalid API key', 'INVALID_API_KEY');
      return principal;
    },
  };
}

/**
 * What a route with `auth: { strategies: ['bearer', 'api-key'], mode: 'optional' }`
 * makes of a caller's credentials: an Authorization header decides alone
 * (valid, or 401), else an API key (valid, or 401), else anonymous.
 */
export async function optionalBearerOrApiKey(
  authenticator: Authenticator, credentials: { authorization?: string; apiKey?: string },
): Promise<Principal | undefined> {
  if (credentials.authorization) return authenticator.bearer(credentials.authorization);
  if (credentials.apiKey) return authenticator.apiKey(credentials.apiKey);
  return undefined;
}

/** Registers the 'bearer' and 'api-key' strategies; returns their verifier for other transports. */
export function registerAuth(server: Server, deps: AuthDeps): Authenticator {
  const authenticator = createAuthenticator(deps);
  server.auth.scheme('platform-bearer', () => ({
    async authenticate(request: Request, h: ResponseToolkit) {
      const header = request.headers.authorization;
      if (!header) throw Boom.unauthorized(null, 'Bearer');
      const credentials = await authenticator.bearer(String(header));
      return h.authenticated({ credentials: credentials as never });
    },
  }));

  server.auth.scheme('platform-api-key', () => ({
    async authenticate(request: Request, h: ResponseToolkit) {
      const key = request.headers['x-api-key'];
      if (!key) throw Boom.unauthorized(null, 'ApiKey');
      const principal = await authenticator.apiKey(String(key));
      return h.authenticated({ credentials: principal as never });
    },
  }));

  server.auth.strategy('bearer', 'platform-bearer');
  server.auth.strategy('api-key', 'platform-api-key');
  return authenticator;
}

export function principalOf(request: Request): Principal {
  return request.auth.credentials as unknown as Principal;
}

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

function bearerToken(request: Request): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(String(header));
  return match?.[1];
}

export function registerAuth(server: Server, deps: AuthDeps): void {
  server.auth.scheme('platform-bearer', () => ({
    async authenticate(request: Request, h: ResponseToolkit) {
      const header = request.headers.authorization;
      if (!header) throw Boom.unauthorized(null, 'Bearer');
      const token = bearerToken(request);
      if (!token) throw unauthorized('Authorization header must be "Bearer <token>"', 'INVALID_TOKEN');
      let credentials: Principal;
      if (token.split('.').length === 3) credentials = await deps.tokens.verify(token);
      else if (secretMatches(token, deps.adminTokenHash)) credentials = { kind: 'super_admin', sub: 'super-admin' };
      else throw unauthorized('Invalid token', 'INVALID_TOKEN');
      return h.authenticated({ credentials: credentials as never });
    },
  }));

  server.auth.scheme('platform-api-key', () => ({
    async authenticate(request: Request, h: ResponseToolkit) {
      const key = request.headers['x-api-key'];
      if (!key) throw Boom.unauthorized(null, 'ApiKey');
      const resolver = deps.resolveApiKey();
      const principal = resolver ? await resolver(String(key)) : undefined;
      if (!principal) throw unauthorized('Invalid API key', 'INVALID_API_KEY');
      return h.authenticated({ credentials: principal as never });
    },
  }));

  server.auth.strategy('bearer', 'platform-bearer');
  server.auth.strategy('api-key', 'platform-api-key');
}

export function principalOf(request: Request): Principal {
  return request.auth.credentials as unknown as Principal;
}

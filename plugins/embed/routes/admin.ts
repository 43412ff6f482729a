// The administrator's embed routes: a client's configuration and its embed
// credential.
import type { Request, ServerRoute } from 'agent-platform/sdk';
import { principalOf, tenantOf } from 'agent-platform/sdk';
import type { ConfigInput, ConfigService } from '../services/config.ts';
import type { CredentialsService } from '../services/credentials.ts';
import type { PlaygroundService } from '../services/playground.ts';
import * as s from '../schemas.ts';

const tags = ['api', 'embed'];
const admin = { tenant: 'required', role: 'admin' } as const;
// API keys are let in to be told 403 (the role check), as service accounts are by the service.
const auth = { strategies: ['bearer', 'api-key'] };

const clientIdOf = (request: Request) => (request.params as { client_id: number }).client_id;

/** Where a host backend trades its credential for a token: PUBLIC_BASE_URL, else this request's own origin. */
export function tokenEndpoint(request: Request, publicBaseUrl: string | null): string {
  const base = publicBaseUrl ?? `${request.server.info.protocol}://${request.info.host}`;
  return `${base.replace(/\/+$/, '')}/oauth/token`;
}

export function adminRoutes(config: ConfigService, credentials: CredentialsService, playground: PlaygroundService, publicBaseUrl: string | null): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/embed/playground',
      options: {
        auth, tags, description: 'The chat playground of the console: the tenant\'s default client and its manifest, for a signed-in member',
        notes: 'Any member of the tenant (bearer token of a person, or the super-admin). The console\'s widget then chats with the member\'s own token on this client without the embed marker, so no embed credential, enabled configuration or allowlisted origin is needed. 403 `HUMAN_REQUIRED` for an API key or a service account; 404 `CLIENT_NOT_FOUND` when the tenant has no client.',
        plugins: { platform: { tenant: 'required' } }, response: { schema: s.playground },
      },
      handler: (request) => playground.read(tenantOf(request), principalOf(request)),
    },
    {
      method: 'GET', path: '/api/admin/clients/{client_id}/embed',
      options: {
        auth: 'bearer', tags, description: 'A client\'s embed configuration (defaults when it was never set)',
        plugins: { platform: admin }, validate: { params: s.clientParams }, response: { schema: s.config },
      },
      handler: (request) => config.get(tenantOf(request), clientIdOf(request)),
    },
    {
      method: 'PUT', path: '/api/admin/clients/{client_id}/embed',
      options: {
        auth: 'bearer', tags, description: 'Set a client\'s embed configuration (fields left out are kept; emits definition.updated)',
        notes: 'Origins are exact http(s) origins; a path, query, fragment, wildcard or other scheme is a 400 naming the entry. Localhost origins need EMBED_ALLOW_LOCALHOST_ORIGINS=true.',
        plugins: { platform: admin }, validate: { params: s.clientParams, payload: s.putConfig }, response: { schema: s.config },
      },
      handler: (request) => config.put(tenantOf(request), clientIdOf(request), request.payload as ConfigInput),
    },
    {
      method: 'POST', path: '/api/admin/embed/config-check',
      options: {
        auth: 'bearer', tags, description: 'Check an embed configuration without changing anything (204 when PUT /api/admin/clients/{client_id}/embed would take it)',
        notes: 'The same checks as the PUT: a bad origin (path, query, fragment, wildcard, other scheme; localhost without EMBED_ALLOW_LOCALHOST_ORIGINS=true) is a 400 naming the entry. Lets a client be created only once its configuration is known to be accepted.',
        plugins: { platform: admin }, validate: { payload: s.putConfig },
      },
      handler: (request, h) => {
        config.check(request.payload as ConfigInput);
        return h.response().code(204);
      },
    },
    {
      method: 'POST', path: '/api/admin/clients/{client_id}/embed-credentials',
      options: {
        auth, tags, description: 'Provision the client\'s embed credential: a dedicated service account (client_secret shown once)',
        notes: 'A human administrator\'s bearer token or the super-admin; API keys and service accounts get 403. 409 when one exists.',
        plugins: { platform: admin }, validate: { params: s.clientParams }, response: { schema: s.credential },
      },
      handler: async (request, h) => h.response(await credentials.provision(
        principalOf(request), tenantOf(request), clientIdOf(request), tokenEndpoint(request, publicBaseUrl),
      )).code(201),
    },
    {
      method: 'POST', path: '/api/admin/clients/{client_id}/embed-credentials/rotate',
      options: {
        auth, tags, description: 'Rotate the embed credential\'s secret (the old one stops working)',
        plugins: { platform: admin }, validate: { params: s.clientParams }, response: { schema: s.credential },
      },
      handler: (request) => credentials.rotate(principalOf(request), tenantOf(request), clientIdOf(request), tokenEndpoint(request, publicBaseUrl)),
    },
    {
      method: 'DELETE', path: '/api/admin/clients/{client_id}/embed-credentials',
      options: {
        auth, tags, description: 'Revoke the embed credential: its service account is deleted and the link cleared',
        plugins: { platform: admin }, validate: { params: s.clientParams }, response: { schema: s.revocation },
      },
      handler: (request) => credentials.revoke(principalOf(request), tenantOf(request), clientIdOf(request)),
    },
  ];
}

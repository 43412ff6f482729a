// The tenancy REST routes: joi in, response schema out, a call to the service.
import type { ServerRoute } from '@hapi/hapi';
import { principalOf, tenantOf } from 'agent-platform/sdk';
import type { TenancyService } from '../services/tenancy.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const member = { tenant: 'required' } as const;

export function tenancyRoutes(service: TenancyService): ServerRoute[] {
  return [
    {
      method: 'POST', path: '/api/admin/tenants',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'], description: 'Create a tenant and its default client (super-admin)',
        plugins: { platform: { tenant: 'none', superAdmin: true } },
        validate: { payload: s.createTenant }, response: { schema: s.createdTenant },
      },
      handler: async (request, h) => h.response(await service.createTenant(request.payload as never)).code(201),
    },
    {
      method: 'GET', path: '/api/admin/tenants',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'], description: 'List tenants (super-admin)',
        plugins: { platform: { tenant: 'none', superAdmin: true } },
        validate: { query: s.paging }, response: { schema: s.listOf(s.tenant, 'TenantList') },
      },
      handler: async (request) => {
        const { skip, limit } = request.query as { skip: number; limit: number };
        return { ...(await service.listTenants(skip, limit)), skip, limit };
      },
    },
    {
      method: 'GET', path: '/api/admin/tenants/{tenant_id}',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'], description: 'Read a tenant (its members, or the super-admin)',
        plugins: { platform: member }, response: { schema: s.tenant },
      },
      handler: (request) => service.getTenant(tenantOf(request)),
    },
    {
      method: 'POST', path: '/api/admin/clients',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'], description: 'Create a client in the tenant',
        plugins: { platform: admin }, validate: { payload: s.createClient }, response: { schema: s.client },
      },
      handler: async (request, h) => h.response(await service.createClient(tenantOf(request), request.payload as never)).code(201),
    },
    {
      method: 'GET', path: '/api/admin/clients',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'], description: 'List the tenant\'s clients',
        plugins: { platform: member }, validate: { query: s.paging }, response: { schema: s.listOf(s.client, 'ClientList') },
      },
      handler: async (request) => {
        const { skip, limit } = request.query as { skip: number; limit: number };
        return { ...(await service.listClients(tenantOf(request), skip, limit)), skip, limit };
      },
    },
    {
      method: 'GET', path: '/api/admin/clients/{id}',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'], description: 'Read a client',
        plugins: { platform: member }, validate: { params: s.clientId }, response: { schema: s.client },
      },
      handler: (request) => service.getClient(tenantOf(request), (request.params as { id: number }).id),
    },
    {
      method: 'PATCH', path: '/api/admin/clients/{id}',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'], description: 'Rename a client',
        plugins: { platform: admin }, validate: { params: s.clientId, payload: s.renameClient }, response: { schema: s.client },
      },
      handler: (request) =>
        service.renameClient(tenantOf(request), (request.params as { id: number }).id, (request.payload as { name: string }).name),
    },
    {
      method: 'DELETE', path: '/api/admin/clients/{id}',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'], description: 'Delete a client and its API keys',
        plugins: { platform: admin }, validate: { params: s.clientId },
      },
      handler: async (request, h) => {
        await service.deleteClient(tenantOf(request), (request.params as { id: number }).id);
        return h.response().code(204);
      },
    },
    {
      method: 'POST', path: '/api/admin/api-keys',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'], description: 'Create an API key for a client; the key is shown only in this response',
        plugins: { platform: admin }, validate: { payload: s.createApiKey }, response: { schema: s.apiKey },
      },
      handler: async (request, h) => h.response(await service.createApiKey(tenantOf(request), request.payload as never)).code(201),
    },
    {
      method: 'GET', path: '/api/admin/api-keys',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'], description: 'List API keys (never the keys themselves)',
        plugins: { platform: admin },
        validate: { query: s.apiKeyQuery },
        response: { schema: s.listOf(s.apiKey, 'ApiKeyList') },
      },
      handler: async (request) => ({ items: await service.listApiKeys(tenantOf(request), (request.query as { client_id?: number }).client_id) }),
    },
    {
      method: 'DELETE', path: '/api/admin/api-keys/{id}',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'], description: 'Revoke an API key',
        plugins: { platform: admin }, validate: { params: s.clientId },
      },
      handler: async (request, h) => {
        await service.revokeApiKey(tenantOf(request), (request.params as { id: number }).id);
        return h.response().code(204);
      },
    },
    {
      method: 'POST', path: '/api/admin/users',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'],
        description: 'Create a user or service account, or add memberships to an existing one (200)',
        plugins: { platform: { tenant: 'optional', role: 'admin' } },
        validate: { payload: s.createUser }, response: { schema: s.user },
      },
      handler: async (request, h) => {
        const { created, user } = await service.upsertUser(principalOf(request), request.app.tenantId, request.payload as never);
        return h.response(user).code(created ? 201 : 200);
      },
    },
    {
      method: 'GET', path: '/api/admin/users',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'], description: 'List the tenant\'s members',
        plugins: { platform: admin }, validate: { query: s.paging }, response: { schema: s.listOf(s.user, 'UserList') },
      },
      handler: async (request) => {
        const { skip, limit } = request.query as { skip: number; limit: number };
        return { ...(await service.listMembers(tenantOf(request), skip, limit)), skip, limit };
      },
    },
    {
      method: 'PATCH', path: '/api/admin/users/{sub}',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'], description: 'Replace a member\'s roles in the tenant (tenant admin)',
        notes: 'Only the membership of the request\'s tenant changes; the answer shows only it. 404 USER_NOT_FOUND when the user is no member of the tenant; 409 OWN_ADMIN_ROLE when an admin would drop its own admin role. Tokens already issued keep their roles until they expire.',
        plugins: { platform: admin }, validate: { params: s.memberSub, payload: s.setMemberRoles }, response: { schema: s.user },
      },
      handler: (request) => service.setMemberRoles(
        principalOf(request), tenantOf(request), (request.params as { sub: string }).sub, (request.payload as { roles: string[] }).roles,
      ),
    },
    {
      method: 'DELETE', path: '/api/admin/users/{sub}',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'], description: 'Remove a member from the tenant (tenant admin); the user keeps its other memberships',
        notes: '204. 404 USER_NOT_FOUND when the user is no member of the tenant; 409 OWN_ADMIN_ROLE for oneself. Tokens already issued keep their membership until they expire.',
        plugins: { platform: admin }, validate: { params: s.memberSub },
      },
      handler: async (request, h) => {
        await service.removeMember(principalOf(request), tenantOf(request), (request.params as { sub: string }).sub);
        return h.response().code(204);
      },
    },
    {
      method: 'POST', path: '/api/admin/users/{sub}/tokens',
      options: {
        auth: 'bearer', tags: ['api', 'tenancy'],
        description: 'Issue an access token for a user (super-admin, or an admin of the user\'s tenant)',
        plugins: { platform: { tenant: 'optional', role: 'admin' } },
        validate: { params: s.userSub }, response: { schema: s.issuedToken },
      },
      handler: async (request, h) =>
        h.response(await service.issueUserToken(principalOf(request), request.app.tenantId, (request.params as { sub: string }).sub)).code(201),
    },
    {
      method: 'GET', path: '/api/me',
      options: {
        auth: { strategies: ['bearer', 'api-key'] }, tags: ['api', 'tenancy'],
        description: 'Who the caller is: principal kind, subject, tenant, client and roles',
        plugins: { platform: { tenant: 'optional' } }, response: { schema: s.whoami },
      },
      handler: (request) => service.whoami(principalOf(request), request.app.tenantId),
    },
    {
      method: 'POST', path: '/oauth/token',
      options: {
        auth: false, tags: ['api', 'tenancy'],
        description: 'OAuth 2.0 token endpoint: client_credentials grant for service accounts (form or Basic auth)',
        payload: { allow: ['application/x-www-form-urlencoded', 'application/json'] },
        validate: { payload: s.tokenRequest }, response: { schema: s.issuedToken },
      },
      handler: async (request, h) => {
        const body = { ...(request.payload as { grant_type: string; client_id?: string; client_secret?: string }) };
        const basic = basicCredentials(request.headers.authorization);
        if (basic) {
          body.client_id ??= basic.id;
          body.client_secret ??= basic.secret;
        }
        return h.response(await service.clientCredentialsToken(body)).header('cache-control', 'no-store');
      },
    },
  ];
}

/**
 * RFC 6749 2.3.1: HTTP Basic with the client id and secret form-urlencoded.
 * A credential that does not decode is treated as absent (so: invalid_client).
 */
function basicCredentials(header: unknown): { id?: string; secret?: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(String(header ?? ''));
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const formDecode = (value: string) => {
    try {
      return decodeURIComponent(value.replace(/\+/g, ' ')) || undefined;
    } catch {
      return undefined;
    }
  };
  if (colon < 0) return {};
  return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
}

// REST routes of credentials: a client's (POST
// /clients/{client_id}/credentials, plus list and delete under
// /api/admin/clients), a chat session's (its owner's), and the tenant's
// secret store. No response ever carries a value: only `value_set`.
import type { ServerRoute } from '@hapi/hapi';
import { principalOf, tenantOf } from 'agent-platform/sdk';
import type { CredentialInput, CredentialsService } from '../services/credentials.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const member = { tenant: 'required' } as const;
const tags = ['api', 'integrations'];

export function credentialRoutes(credentials: CredentialsService): ServerRoute[] {
  return [
    {
      method: 'POST', path: '/clients/{client_id}/credentials',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin },
        description: 'Store the credential a client uses for an imported spec (service_name); encrypted at rest, never returned',
        notes: '201 when created, 200 when it replaced the client\'s credential for that service.',
        validate: { params: s.clientParam, payload: s.credentialBody }, response: { schema: s.credentialView },
      },
      handler: async (request, h) => {
        const { created, credential } = await credentials.setClientCredential(
          tenantOf(request), (request.params as { client_id: number }).client_id, request.payload as CredentialInput,
        );
        return h.response(credential).code(created ? 201 : 200);
      },
    },
    {
      method: 'GET', path: '/api/admin/clients/{client_id}/credentials',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'A client\'s credentials (service names and headers, never values)',
        validate: { params: s.clientParam }, response: { schema: s.listOf(s.credentialView, 'ClientCredentialList') },
      },
      handler: async (request) => ({ items: await credentials.listClientCredentials(tenantOf(request), (request.params as { client_id: number }).client_id) }),
    },
    {
      method: 'DELETE', path: '/api/admin/clients/{client_id}/credentials/{service_name}',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Delete a client\'s credential for a service',
        validate: { params: s.clientServiceParam },
      },
      handler: async (request, h) => {
        const { client_id, service_name } = request.params as { client_id: number; service_name: string };
        await credentials.deleteClientCredential(tenantOf(request), client_id, service_name);
        return h.response().code(204);
      },
    },
    {
      method: 'POST', path: '/api/sessions/{session_id}/credentials',
      options: {
        auth: { strategies: ['bearer', 'api-key'] }, tags, plugins: { platform: member },
        description: 'Store a session-level credential (first in the resolution order) for an imported spec; only the session\'s owner',
        validate: { params: s.sessionParam, payload: s.sessionCredentialBody }, response: { schema: s.credentialView },
      },
      handler: async (request, h) => {
        const { created, credential } = await credentials.setSessionCredential(
          tenantOf(request), request.params.session_id as string, principalOf(request).sub, request.payload as never,
        );
        return h.response(credential).code(created ? 201 : 200);
      },
    },
    {
      method: 'GET', path: '/api/sessions/{session_id}/credentials',
      options: {
        auth: { strategies: ['bearer', 'api-key'] }, tags, plugins: { platform: member }, description: 'A session\'s credentials (never values); the owner only',
        validate: { params: s.sessionParam }, response: { schema: s.listOf(s.credentialView, 'SessionCredentialList') },
      },
      handler: async (request) => ({
        items: await credentials.listSessionCredentials(tenantOf(request), request.params.session_id as string, principalOf(request).sub),
      }),
    },
    {
      method: 'DELETE', path: '/api/sessions/{session_id}/credentials/{service_name}',
      options: {
        auth: { strategies: ['bearer', 'api-key'] }, tags, plugins: { platform: member }, description: 'Delete a session credential; the owner only',
        validate: { params: s.sessionServiceParam },
      },
      handler: async (request, h) => {
        const { session_id, service_name } = request.params as { session_id: string; service_name: string };
        await credentials.deleteSessionCredential(tenantOf(request), session_id, principalOf(request).sub, service_name);
        return h.response().code(204);
      },
    },
    {
      method: 'PUT', path: '/api/admin/integrations/secrets/{key}',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin },
        description: 'Create or replace a secret in the tenant\'s secret store (what auth_credential_source names); never returned',
        validate: { params: s.secretParam, payload: s.secretBody },
      },
      handler: async (request, h) => {
        const { created, secret } = await credentials.setSecret(tenantOf(request), request.params.key as string, (request.payload as { value: string }).value);
        return h.response(secret).code(created ? 201 : 200);
      },
    },
    {
      method: 'GET', path: '/api/admin/integrations/secrets',
      options: { auth: 'bearer', tags, plugins: { platform: admin }, description: 'Keys of the tenant\'s secret store (never values)' },
      handler: async (request) => ({ items: await credentials.listSecrets(tenantOf(request)) }),
    },
    {
      method: 'DELETE', path: '/api/admin/integrations/secrets/{key}',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Delete a secret', validate: { params: s.secretParam },
      },
      handler: async (request, h) => {
        await credentials.deleteSecret(tenantOf(request), request.params.key as string);
        return h.response().code(204);
      },
    },
  ];
}

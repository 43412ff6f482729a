// Agent definitions (/api/admin/agents) and each client's default agent
// (/api/admin/clients/{client_id}/agent): bearer, tenant admin for writes.
import type { ServerRoute } from '@hapi/hapi';
import { tenantOf } from 'agent-platform/sdk';
import type { AgentsService } from '../services/agents.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const tags = ['api', 'chat'];

export function agentRoutes(agents: AgentsService): ServerRoute[] {
  return [
    {
      method: 'POST', path: '/api/admin/agents',
      options: {
        auth: 'bearer', tags, description: 'Create an agent definition (emits definition.created)',
        plugins: { platform: admin }, validate: { payload: s.createAgent }, response: { schema: s.agent },
      },
      handler: async (request, h) => h.response(await agents.create(tenantOf(request), request.payload as never)).code(201),
    },
    {
      method: 'GET', path: '/api/admin/agents',
      options: {
        auth: 'bearer', tags, description: 'List agent definitions',
        plugins: { platform: admin }, validate: { query: s.paging }, response: { schema: s.agentList },
      },
      handler: async (request) => {
        const { skip, limit } = request.query as { skip: number; limit: number };
        return { ...(await agents.list(tenantOf(request), skip, limit)), skip, limit };
      },
    },
    {
      method: 'GET', path: '/api/admin/agents/{name}',
      options: {
        auth: 'bearer', tags, description: 'Read an agent definition',
        plugins: { platform: admin }, validate: { params: s.nameParams }, response: { schema: s.agent },
      },
      handler: (request) => agents.get(tenantOf(request), (request.params as { name: string }).name),
    },
    {
      method: 'PATCH', path: '/api/admin/agents/{name}',
      options: {
        auth: 'bearer', tags, description: 'Change an agent definition (fields left out are kept; emits definition.updated with changed_fields)',
        plugins: { platform: admin }, validate: { params: s.nameParams, payload: s.updateAgent }, response: { schema: s.agent },
      },
      handler: (request) => agents.update(tenantOf(request), (request.params as { name: string }).name, request.payload as never),
    },
    {
      method: 'DELETE', path: '/api/admin/agents/{name}',
      options: {
        auth: 'bearer', tags, description: 'Delete an agent definition (409 AGENT_IN_USE while it is a client\'s default; emits definition.deleted)',
        plugins: { platform: admin }, validate: { params: s.nameParams },
      },
      handler: async (request, h) => {
        await agents.remove(tenantOf(request), (request.params as { name: string }).name);
        return h.response().code(204);
      },
    },
    {
      method: 'GET', path: '/api/admin/clients/{client_id}/agent',
      options: {
        auth: 'bearer', tags, description: 'The client\'s default agent (builtin: true when none is set: the built-in assistant answers)',
        plugins: { platform: admin }, validate: { params: s.clientParams }, response: { schema: s.clientAgent },
      },
      handler: (request) => agents.getClientAgent(tenantOf(request), (request.params as { client_id: number }).client_id),
    },
    {
      method: 'PUT', path: '/api/admin/clients/{client_id}/agent',
      options: {
        auth: 'bearer', tags, description: 'Set the client\'s default agent',
        plugins: { platform: admin }, validate: { params: s.clientParams, payload: s.clientAgentBody }, response: { schema: s.clientAgent },
      },
      handler: (request) => agents.setClientAgent(tenantOf(request), (request.params as { client_id: number }).client_id,
        (request.payload as { agent_name: string }).agent_name),
    },
    {
      method: 'DELETE', path: '/api/admin/clients/{client_id}/agent',
      options: {
        auth: 'bearer', tags, description: 'Unset the client\'s default agent (the built-in assistant answers)',
        plugins: { platform: admin }, validate: { params: s.clientParams },
      },
      handler: async (request, h) => {
        await agents.clearClientAgent(tenantOf(request), (request.params as { client_id: number }).client_id);
        return h.response().code(204);
      },
    },
  ];
}

// The workflows REST routes: joi in, response schema out, a call to the service.
// Workflow definitions and executions (with their contexts) are tenant configuration and other users' data: admin role throughout.
import type { ServerRoute } from '@hapi/hapi';
import { actorOf, principalOf, tenantOf } from 'agent-platform/sdk';
import type { WorkflowsService } from '../services/workflows.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const tags = ['api', 'workflows'];

type Paging = { skip: number; limit: number };

export function workflowsRoutes(service: WorkflowsService): ServerRoute[] {
  return [
    {
      method: 'POST', path: '/api/admin/workflows',
      options: {
        auth: 'bearer', tags, description: 'Create a workflow definition; every invalid step is named in the 400',
        plugins: { platform: admin }, validate: { payload: s.createDefinition }, response: { schema: s.definition },
      },
      handler: async (request, h) => h.response(await service.createDefinition(tenantOf(request), request.payload as never)).code(201),
    },
    {
      method: 'GET', path: '/api/admin/workflows',
      options: {
        auth: 'bearer', tags, description: 'List workflow definitions',
        plugins: { platform: admin }, validate: { query: s.paging }, response: { schema: s.listOf(s.definition, 'WorkflowList') },
      },
      handler: async (request) => {
        const { skip, limit } = request.query as Paging;
        return { ...(await service.listDefinitions(tenantOf(request), skip, limit)), skip, limit };
      },
    },
    {
      method: 'GET', path: '/api/admin/workflows/{name}',
      options: {
        auth: 'bearer', tags, description: 'Read a workflow definition',
        plugins: { platform: admin }, validate: { params: s.nameParam }, response: { schema: s.definition },
      },
      handler: (request) => service.getDefinition(tenantOf(request), request.params.name as string),
    },
    {
      method: 'PUT', path: '/api/admin/workflows/{name}',
      options: {
        auth: 'bearer', tags, description: 'Update a workflow\'s description and/or steps (fields left out are kept); the version goes up when something changed',
        plugins: { platform: admin }, validate: { params: s.nameParam, payload: s.updateDefinition }, response: { schema: s.definition },
      },
      handler: (request) => service.updateDefinition(tenantOf(request), request.params.name as string, request.payload as never),
    },
    {
      method: 'DELETE', path: '/api/admin/workflows/{name}',
      options: {
        auth: 'bearer', tags, description: 'Delete a workflow definition (executions in flight keep their snapshot)',
        plugins: { platform: admin }, validate: { params: s.nameParam },
      },
      handler: async (request, h) => {
        await service.deleteDefinition(tenantOf(request), request.params.name as string);
        return h.response().code(204);
      },
    },
    {
      method: 'POST', path: '/api/admin/workflows/{name}/execute',
      options: {
        auth: 'bearer', tags, description: 'Start an execution; it runs in the background (202)',
        plugins: { platform: admin }, validate: { params: s.nameParam, payload: s.executeBody }, response: { schema: s.started },
      },
      handler: async (request, h) => {
        const { inputs } = (request.payload ?? {}) as { inputs: Record<string, unknown> };
        const principal = principalOf(request);
        const started = await service.execute(tenantOf(request), request.params.name as string, inputs ?? {}, {
          type: 'api', id: principal.sub, ...(actorOf(principal) ? { acting_for: actorOf(principal) } : {}),
        });
        return h.response(started).code(202);
      },
    },
    {
      method: 'GET', path: '/api/admin/executions',
      options: {
        auth: 'bearer', tags, description: 'List executions, newest first; filter by status and workflow',
        plugins: { platform: admin }, validate: { query: s.executionQuery }, response: { schema: s.listOf(s.executionSummary, 'ExecutionList') },
      },
      handler: async (request) => {
        const { skip, limit, status, workflow } = request.query as Paging & { status?: never; workflow?: string };
        return { ...(await service.listExecutions(tenantOf(request), { status, workflow }, skip, limit)), skip, limit };
      },
    },
    {
      method: 'GET', path: '/api/admin/executions/{id}',
      options: {
        auth: 'bearer', tags, description: 'Read an execution: status, context (inputs and outputs), step history with timings',
        plugins: { platform: admin }, validate: { params: s.executionId }, response: { schema: s.execution },
      },
      handler: (request) => service.getExecution(tenantOf(request), request.params.id as string),
    },
    {
      method: 'GET', path: '/api/admin/executions/{workflow_id}/pending-events',
      options: {
        auth: 'bearer', tags, description: 'The event types an execution waits for (empty when it is not waiting)',
        plugins: { platform: admin }, validate: { params: s.workflowId }, response: { schema: s.pendingEvents },
      },
      handler: (request) => service.pendingEvents(tenantOf(request), request.params.workflow_id as string),
    },
    {
      method: 'POST', path: '/api/admin/executions/{id}/cancel',
      options: {
        auth: 'bearer', tags, description: 'Cancel a running or waiting execution; 409 when it has ended',
        plugins: { platform: admin }, validate: { params: s.executionId }, response: { schema: s.execution },
      },
      handler: (request) => service.cancelExecution(tenantOf(request), request.params.id as string),
    },
  ];
}

// Admin routes over the function registry: list, and call one in the caller's tenant.
import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import type { FunctionRegistry, FunctionStatus } from './registry.ts';
import { principalOf } from '../auth/index.ts';
import { tenantOf } from '../auth/tenant-context.ts';
import type { WithTenant } from '../db/tenant.ts';
import type { Logger } from 'pino';
import { boundedJson } from '../http/bounded-json.ts';

const functionSchema = Joi.object({
  name: Joi.string(),
  description: Joi.string().allow(''),
  parameters: Joi.object().unknown(),
  source: Joi.string(),
  status: Joi.string().valid('active', 'removed'),
}).label('Function');

// Paged like the other admin lists; `source` is `platform` or an imported spec's name.
const listQuery = Joi.object({
  source: Joi.string().max(128).pattern(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a spec name or "platform"')
    .description('`platform`, or the name of an imported spec'),
  status: Joi.string().valid('active', 'removed').default('active')
    .description('`active` (default): callable; `removed`: imported functions whose operation left their spec'),
  skip: Joi.number().integer().min(0).default(0),
  limit: Joi.number().integer().min(1).max(500).default(50),
});

const admin = { tenant: 'required', role: 'admin' } as const;

export function registerFunctionRoutes(server: Server, registry: FunctionRegistry, withTenant: WithTenant, logger: Logger): void {
  server.route({
    method: 'GET',
    path: '/api/admin/functions',
    options: {
      auth: 'bearer',
      plugins: { platform: admin },
      tags: ['api', 'functions'],
      description: 'List functions (platform and imported) by name; filter by source and status',
      validate: { query: listQuery },
      response: {
        schema: Joi.object({
          items: Joi.array().items(functionSchema), total: Joi.number().integer(), skip: Joi.number(), limit: Joi.number(),
        }).label('FunctionList'),
      },
    },
    handler: async (request) => {
      const { source, status, skip, limit } = request.query as { source?: string; status: FunctionStatus; skip: number; limit: number };
      const all = await registry.list(tenantOf(request), { source, status });
      return { items: all.slice(skip, skip + limit), total: all.length, skip, limit };
    },
  });

  server.route({
    method: 'POST',
    path: '/api/admin/functions/{name}/call',
    options: {
      auth: 'bearer',
      // Agents and workflows call functions through their own authorized paths;
      // calling one directly (emit_event, imported APIs with stored credentials) is an admin's act.
      plugins: { platform: admin },
      tags: ['api', 'functions'],
      description: 'Call a function in the caller\'s tenant (admin role); arguments are validated against its JSON Schema',
      validate: {
        params: Joi.object({ name: Joi.string().max(128).required() }),
        payload: Joi.object({ arguments: boundedJson('FunctionArguments').default({}) }),
      },
    },
    handler: async (request) => {
      const { arguments: args } = request.payload as { arguments: Record<string, unknown> };
      const result = await registry.call(String(request.params.name), args, {
        tenantId: tenantOf(request),
        principal: principalOf(request),
        withTenant,
        logger,
        executionContext: { type: 'function_call', id: request.info.id },
      });
      return { result: result ?? null };
    },
  });
}

// Admin routes over the function registry: list, and call one in the caller's tenant.
import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import type { FunctionRegistry } from './registry.ts';
import { principalOf } from '../auth/index.ts';
import { tenantOf } from '../auth/tenant-context.ts';
import type { WithTenant } from '../db/tenant.ts';
import type { Logger } from 'pino';

const functionSchema = Joi.object({
  name: Joi.string(),
  description: Joi.string().allow(''),
  parameters: Joi.object().unknown(),
  source: Joi.string(),
}).label('Function');

const admin = { tenant: 'required', role: 'admin' } as const;

export function registerFunctionRoutes(server: Server, registry: FunctionRegistry, withTenant: WithTenant, logger: Logger): void {
  server.route({
    method: 'GET',
    path: '/api/admin/functions',
    options: {
      auth: 'bearer',
      plugins: { platform: admin },
      tags: ['api', 'functions'],
      description: 'List every callable function (platform and imported)',
      response: { schema: Joi.object({ items: Joi.array().items(functionSchema) }).label('FunctionList') },
    },
    handler: async (request) => ({ items: await registry.list(tenantOf(request)) }),
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
        payload: Joi.object({ arguments: Joi.object().unknown().default({}) }),
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

// The `log` platform function: writes one line to the platform log, tagged
// with the tenant and the calling execution, and returns what it logged.
import type { Logger } from 'pino';
import type { FunctionDefinition } from 'agent-platform/sdk';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

export function logFunction(logger: Logger): FunctionDefinition {
  return {
    description: 'Write a message to the platform log (with the tenant and the calling workflow execution).',
    parameters: {
      properties: {
        message: { type: 'string', maxLength: 10_000 },
        level: { type: 'string', enum: [...LEVELS], default: 'info' },
        data: { type: 'object' },
      },
      required: ['message'],
      additionalProperties: false,
    },
    async handler(args, context) {
      const level = args.level as (typeof LEVELS)[number];
      const caller = context.executionContext;
      logger[level](
        { tenant_id: context.tenantId, [caller ? `${caller.type}_id` : 'caller']: caller?.id ?? context.principal.sub, data: args.data },
        args.message,
      );
      return { message: args.message, level };
    },
  };
}

// CLI commands of the workflows plugin. The CLI acts as the operator. It
// enqueues, and the running server's workers execute: `execute` prints the
// execution id at once, and `GET /api/admin/executions/{id}` follows it.
import type { CliCommand } from '../../core/cli/commands.ts';
import { UsageError } from '../../core/cli/commands.ts';
import { startExecution } from './runner.ts';
import { definitionsStore } from './store.ts';

const tenant = { type: 'string', description: 'tenant alias', required: true } as const;

function parseInputs(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(value));
  } catch {
    throw new UsageError('--inputs must be JSON, e.g. \'{"order_id": 42}\'');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError('--inputs must be a JSON object');
  return parsed as Record<string, unknown>;
}

export const cli: CliCommand[] = [
  {
    name: 'workflows list',
    description: 'List a tenant\'s workflow definitions',
    options: { tenant },
    run: async (core, { options }) => {
      const page = await core.withTenant(options.tenant as string, (trx) => definitionsStore.list(trx, 0, 500));
      return { ...page, items: page.items.map(({ name, description, version, updated_at }) => ({ name, description, version, updated_at })) };
    },
  },
  {
    name: 'workflows execute',
    description: 'Start an execution of a workflow (the server\'s workers run it)',
    positionals: ['name'],
    options: { tenant, inputs: { type: 'string', description: 'inputs as a JSON object' } },
    run: (core, { positionals, options }) => {
      const inputs = parseInputs(options.inputs);
      return core.withTenant(options.tenant as string, (trx) =>
        startExecution(core.jobs, trx, options.tenant as string, positionals[0], inputs, { type: 'api', id: 'cli' }));
    },
  },
];

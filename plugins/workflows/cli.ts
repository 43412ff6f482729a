// CLI commands of the workflows plugin. The CLI acts as the operator. It
// enqueues, and the running server's workers execute: `execute` prints the
// execution id at once, and `GET /api/admin/executions/{id}` follows it.
import type { CoreServices } from 'agent-platform/sdk';
import { defineCli, UsageError } from 'agent-platform/sdk/cli';
import type { WorkflowsOptions } from './options.ts';

const tenant = { type: 'string', description: 'tenant alias', required: true } as const;

function parseInputs(value: string | undefined): Record<string, unknown> {
  if (value === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new UsageError('--inputs must be JSON, e.g. \'{"order_id": 42}\'');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError('--inputs must be a JSON object');
  return parsed as Record<string, unknown>;
}

/** The plugin's services, imported when a command runs (the declarations load nothing else). */
const services = async (core: CoreServices, options: WorkflowsOptions) => (await import('./services.ts')).createServices(core, options);

export const cli = defineCli(services, (command) => [
  command({
    name: 'workflows list',
    description: 'List a tenant\'s workflow definitions',
    options: { tenant },
    run: async ({ workflows }, { options }) => {
      const page = await workflows.listDefinitions(options.tenant, 0, 500);
      return { ...page, items: page.items.map(({ name, description, version, updated_at }) => ({ name, description, version, updated_at })) };
    },
  }),
  command({
    name: 'workflows execute',
    description: 'Start an execution of a workflow (the server\'s workers run it)',
    positionals: ['name'],
    options: { tenant, inputs: { type: 'string', description: 'inputs as a JSON object' } },
    // Never inline (runner.start may be): the CLI has no event backend, so the start job runs in the server.
    run: async (_services, { positionals, options }, core) => {
      const inputs = parseInputs(options.inputs);
      const { startExecution } = await import('./execution/runner.ts');
      return core.withTenant(options.tenant, (trx) =>
        startExecution(core.jobs, trx, options.tenant, positionals[0], inputs, { type: 'api', id: 'cli', acting_for: { kind: 'super_admin' } }));
    },
  }),
]);

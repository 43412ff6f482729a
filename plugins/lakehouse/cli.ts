// CLI commands of the lakehouse: what the operator reads and runs by hand.
import type { CoreServices } from 'agent-platform/sdk';
import { defineCli } from 'agent-platform/sdk/cli';
import type { LakehouseOptions } from './options.ts';

const tenant = { type: 'string', description: 'tenant alias', required: true } as const;
const dataset = { type: 'string', description: 'dataset id, <namespace>.<tenant_or_layer>.<table>', required: true } as const;

/** The plugin's services, imported when a command runs (the declarations load nothing else). */
const services = async (core: CoreServices, options: LakehouseOptions) => (await import('./services.ts')).createServices(core, options);

export const cli = defineCli(services, (command) => [
  command({
    name: 'datasets list',
    description: 'List the datasets a tenant may read (its own and the shared ones)',
    options: { tenant, namespace: { type: 'string', description: 'raw, derived, registry or sandbox' } },
    run: ({ datasets }, { options }) => datasets.list(options.tenant, { namespace: options.namespace, limit: 500, offset: 0 }),
  }),
  command({
    name: 'datasets snapshots',
    description: 'List a dataset\'s snapshots, newest first',
    options: { tenant, dataset },
    run: ({ datasets }, { options }) => datasets.snapshots(options.tenant, options.dataset, { limit: 500 }),
  }),
  command({
    name: 'datasets vacuum',
    description: 'Apply snapshot retention to one of the tenant\'s datasets now (it runs after every write anyway)',
    options: { tenant, dataset },
    run: ({ retention }, { options }) => retention.vacuum(options.tenant, options.dataset),
  }),
]);

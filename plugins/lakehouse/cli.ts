// CLI commands of the lakehouse: what the operator reads and runs by hand.
import { defineCli } from 'agent-platform/sdk';
import { createServices } from './services.ts';

const tenant = { type: 'string', description: 'tenant alias', required: true } as const;
const dataset = { type: 'string', description: 'dataset id, <namespace>.<tenant_or_layer>.<table>', required: true } as const;

export const cli = defineCli(createServices, (command) => [
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

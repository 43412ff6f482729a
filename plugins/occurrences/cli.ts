// The occurrences plugin's CLI command: a tenant's latest occurrences (no reporter data).
import type { CoreServices } from 'agent-platform/sdk';
import { defineCli } from 'agent-platform/sdk/cli';
import type { OccurrencesOptions } from './options.ts';

/** The plugin's services, imported when a command runs (the declarations load nothing else). */
const services = async (core: CoreServices, options: OccurrencesOptions) => (await import('./services.ts')).createServices(core, options);

export const cli = defineCli(services, (command) => [
  command({
    name: 'occurrences list',
    description: 'List a tenant\'s occurrences, newest first (id, reference, type, state, title, created_at)',
    options: {
      tenant: { type: 'string', description: 'tenant alias', required: true },
      state: { type: 'string', description: 'only this state' },
    },
    run: async ({ backoffice }, { options }) => (await backoffice.list(options.tenant, { state: options.state }, '-created_at', 0, 100)).items
      .map((row) => ({ id: row.id, reference: row.reference, type: row.occurrence_type, state: row.state, title: row.title, created_at: row.created_at })),
  }),
]);

// The occurrences plugin's CLI command: a tenant's latest occurrences (no reporter data).
import { defineCli } from 'agent-platform/sdk';
import { createServices } from './services.ts';

export const cli = defineCli(createServices, (command) => [
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

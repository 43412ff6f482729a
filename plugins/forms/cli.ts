// The forms plugin's CLI command: a tenant's submissions, newest first.
import type { CoreServices } from 'agent-platform/sdk';
import { defineCli } from 'agent-platform/sdk/cli';
import type { FormsOptions } from './options.ts';

/** The plugin's services, imported when a command runs (the declarations load nothing else). */
const services = async (core: CoreServices, options: FormsOptions) => (await import('./services.ts')).createServices(core, options);

export const cli = defineCli(services, (command) => [
  command({
    name: 'forms submissions',
    description: 'List a tenant\'s form submissions, newest first (id, use case, form version, hydration)',
    options: {
      tenant: { type: 'string', description: 'tenant alias', required: true },
      'use-case': { type: 'string', description: 'only this use case (id)' },
    },
    run: async ({ adminSubmissions }, { options }) => (await adminSubmissions.list(options.tenant, { useCaseId: options['use-case'] }, 0, 100)).items
      .map(({ payload_json: _payload, ...rest }) => rest),
  }),
]);

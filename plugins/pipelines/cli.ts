// CLI commands of the pipelines plugin: what an operator reads by hand. The
// CLI has no server, so no other plugin's api: these commands read this
// plugin's own tables only.
import type { CoreServices } from 'agent-platform/sdk';
import { defineCli, UsageError } from 'agent-platform/sdk/cli';
import type { PipelinesOptions } from './options.ts';

const tenant = { type: 'string', description: 'tenant alias', required: true } as const;
const unavailable = (): never => {
  throw new UsageError('this command needs the server (the lakehouse and transforms apis)');
};

/** The plugin's services, imported when a command runs (the declarations load nothing else). */
const cliServices = async (core: CoreServices, options: PipelinesOptions) => (await import('./services.ts')).createServices(core, options, { lake: unavailable, transforms: () => undefined, events: () => undefined });

export const cli = defineCli(cliServices, (command) => [
  command({
    name: 'pipelines list',
    description: 'List a tenant\'s pipelines with their state and versions',
    options: { tenant },
    run: ({ pipelines }, { options }) => pipelines.list(options.tenant, { limit: 500, offset: 0 }),
  }),
  command({
    name: 'pipelines runs',
    description: 'List a tenant\'s pipeline runs (of one pipeline with --pipeline), newest first, with step results',
    options: { tenant, pipeline: { type: 'string', description: 'pipeline id' } },
    run: ({ runs }, { options }) => runs.list(options.tenant, { pipelineId: options.pipeline }, { limit: 100, offset: 0 }),
  }),
]);

// CLI commands: `platform ingest <path or glob> --collection N` uploads files
// through the running server's REST API (429 answers are waited out with their
// Retry-After) and draws a progress bar fed by the collection's aggregate
// status until nothing is outstanding; `platform search "<query>"` prints the
// best chunks. Both are HTTP clients of the server (its workers do the
// ingestion), so they need no database: --url (default PLATFORM_URL or
// http://127.0.0.1:$PORT), --token (default PLATFORM_TOKEN or ADMIN_TOKEN),
// --tenant. `platform models pull|list|status` manage the pulled embedding
// models in the data directory (services/models.ts): they run on the
// database (status counts every tenant's chunks), not through the server.
import type { CoreServices } from 'agent-platform/sdk';
import { defineCli, serverOptions, UsageError } from 'agent-platform/sdk/cli';
import type { IngestionOptions } from './options.ts';

/** The plugin's services, imported when a command runs (the declarations load nothing else). */
const services = async (core: CoreServices, options: IngestionOptions) => (await import('./services.ts')).createServices(core, options);

const connection = {
  ...serverOptions,
  tenant: { type: 'string', description: 'tenant alias (X-Tenant-ID)', required: true },
} as const;

export const cli = defineCli(services, (command) => [
  command({
    name: 'collections create',
    description: 'Create a collection (a folder of documents; names are unique among siblings, in any case)',
    positionals: ['name'],
    options: {
      tenant: connection.tenant,
      description: { type: 'string', description: 'what it holds' },
      parent: { type: 'string', description: 'the parent collection\'s id (default: top level)' },
    },
    run: async ({ collections }, { positionals, options }) => {
      const { createCollection } = await import('./schemas.ts');
      const { value, error } = createCollection.validate({
        name: positionals[0], ...(options.description !== undefined ? { description: options.description } : {}),
        ...(options.parent !== undefined ? { parent_id: options.parent } : {}),
      });
      if (error) throw new UsageError(error.message.replace('"parent_id"', '--parent').replace('"name"', 'the name'));
      return collections.create(options.tenant, value).catch((err: unknown) => {
        if ((err as { code?: string }).code !== '23505') throw err;
        throw new UsageError(`a collection named "${value.name}" already exists ${value.parent_id ? `under collection ${value.parent_id}` : 'at the top level'} of tenant ${options.tenant}`);
      });
    },
  }),
  command({
    name: 'collections list',
    description: 'List a tenant\'s collections with their document counts',
    options: { tenant: connection.tenant },
    run: ({ collections }, { options }) => collections.list(options.tenant, {}, 0, 500),
  }),
  command({
    name: 'models pull',
    description: 'Download an embedding model from the hub (MODELS_HUB_URL) into the data directory, check it embeds, and make it the embedding model (after a restart)',
    positionals: ['name'],
    run: (services, { positionals, progress }) => services.models.pull(positionals[0], progress),
  }),
  command({
    name: 'models list',
    description: 'The pulled embedding models: name, size, dimension, and which one is in use',
    run: async (services) => services.models.list(),
  }),
  command({
    name: 'models status',
    description: 'The embedding model in use and how many current chunks are embedded by it or left to re-embed, per tenant',
    run: (services) => services.models.status(),
  }),
  command({
    name: 'ingest',
    description: 'Upload files (a path, a folder or a glob) into a collection through the server and follow their ingestion',
    positionals: ['path or glob'],
    offline: true,
    options: { ...connection, collection: { type: 'string', description: 'collection name or id', required: true } },
    run: async (_services, { positionals, options, progress }) => {
      const { clientOf, collectionIdOf, filesOf, ingestFiles } = await import('./cli/http.ts');
      const files = await filesOf(positionals[0]);
      if (files.length === 0) throw new UsageError(`no files match ${positionals[0]}`);
      const client = clientOf(options);
      const collectionId = await collectionIdOf(client, options.collection, options.tenant);
      if (collectionId < 1) throw new UsageError('--collection must be a collection name or id');
      return ingestFiles(client, files, collectionId, progress);
    },
  }),
  command({
    name: 'search',
    description: 'Search the tenant\'s documents (hybrid keyword and vector search) through the server',
    positionals: ['query'],
    offline: true,
    options: { ...connection, collection: { type: 'string', description: 'only this collection, by name or id (and its sub-collections)' }, top: { type: 'string', description: 'results (default 5)' } },
    run: async (_services, { positionals, options }) => {
      const { clientOf, collectionIdOf } = await import('./cli/http.ts');
      const client = clientOf(options);
      const query = new URLSearchParams({ query: positionals[0], top_k: String(options.top ?? 5) });
      if (options.collection) query.set('collection_id', String(await collectionIdOf(client, options.collection, options.tenant)));
      const answer = await client.call('GET', `/api/admin/search?${query}`);
      if (answer.status !== 200) throw new Error(`search: ${answer.status} ${answer.body.message ?? ''}`);
      return answer.body;
    },
  }),
]);

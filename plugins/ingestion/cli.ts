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
import { glob, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { defineCli, UsageError } from 'agent-platform/sdk';
import { createServices } from './services.ts';

const connection = {
  url: { type: 'string', description: 'server base URL (default PLATFORM_URL or http://127.0.0.1:$PORT)' },
  token: { type: 'string', description: 'bearer token (default PLATFORM_TOKEN or ADMIN_TOKEN)' },
  tenant: { type: 'string', description: 'tenant alias (X-Tenant-ID)', required: true },
} as const;

/** What the server answered; `T` is the body of a success (an error body has `message`). */
interface Answer<T> {
  status: number;
  body: Partial<T> & { message?: string };
  headers: Headers;
}

interface Client {
  call<T>(method: string, path: string, body?: BodyInit): Promise<Answer<T>>;
}

/** The aggregate status of a collection, as far as the progress bar reads it. */
interface CollectionStatus {
  total: number;
  counts: { pending: number; ingesting: number; ready: number; error: number };
  eta_seconds: number | null;
}

function clientOf(options: { url?: string; token?: string; tenant: string }, env = process.env): Client {
  const base = (options.url ?? env.PLATFORM_URL ?? `http://127.0.0.1:${env.PORT ?? 8080}`).replace(/\/+$/, '');
  const token = options.token ?? env.PLATFORM_TOKEN ?? env.ADMIN_TOKEN;
  if (!token) throw new UsageError('a token is needed: --token, PLATFORM_TOKEN or ADMIN_TOKEN');
  return {
    async call<T>(method: string, route: string, body?: BodyInit): Promise<Answer<T>> {
      const response = await fetch(`${base}${route}`, {
        method, body, headers: { authorization: `Bearer ${token}`, 'x-tenant-id': options.tenant },
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // keep the text
      }
      return { status: response.status, body: (parsed ?? {}) as Answer<T>['body'], headers: response.headers };
    },
  };
}

/** Files named by a path (a file, or every file of a folder) or a glob. */
export async function filesOf(pattern: string): Promise<string[]> {
  const info = await stat(pattern).catch(() => undefined);
  if (info?.isFile()) return [pattern];
  const files: string[] = [];
  const expression = info?.isDirectory() ? path.join(pattern, '**/*') : pattern;
  for await (const file of glob(expression)) {
    if ((await stat(file)).isFile()) files.push(file);
  }
  return files.sort();
}

function bar(done: number, total: number, width = 30): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ingestFiles(client: Client, files: string[], collectionId: number, progress: (line: string) => void, pollMs = 1000) {
  const uploaded: { file: string; document_id?: string; error?: string }[] = [];
  for (const file of files) {
    for (;;) {
      const form = new FormData();
      form.append('file', new Blob([await readFile(file)]), path.basename(file));
      const answer = await client.call<{ document_id: string }>('POST', `/api/admin/collections/${collectionId}/documents`, form);
      if (answer.status === 429) {
        await sleep(Number(answer.headers.get('retry-after') ?? 5) * 1000);
        continue;
      }
      uploaded.push(answer.status === 202 ? { file, document_id: answer.body.document_id } : { file, error: `${answer.status} ${answer.body.message ?? ''}`.trim() });
      break;
    }
    progress(`uploaded ${uploaded.length}/${files.length}`);
  }
  const ids = new Set(uploaded.flatMap((u) => (u.document_id ? [u.document_id] : [])));
  let status: CollectionStatus;
  for (;;) {
    const answer = await client.call<CollectionStatus>('GET', `/api/admin/collections/${collectionId}/ingestion-status?include_descendants=false`);
    if (answer.status !== 200) throw new Error(`status: ${answer.status} ${answer.body.message ?? ''}`);
    status = answer.body as CollectionStatus;
    const outstanding = status.counts.pending + status.counts.ingesting;
    const finished = status.total - outstanding;
    progress(`${bar(finished, status.total)} ready ${status.counts.ready} error ${status.counts.error}${status.eta_seconds !== null ? ` eta ${status.eta_seconds}s` : ''}`);
    if (outstanding === 0 || ids.size === 0) break;
    await sleep(pollMs);
  }
  return { uploaded, status };
}

export const cli = defineCli(createServices, (command) => [
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
    options: { ...connection, collection: { type: 'string', description: 'collection id', required: true } },
    run: async (_services, { positionals, options, progress }) => {
      const collectionId = Number(options.collection);
      if (!Number.isInteger(collectionId) || collectionId < 1) throw new UsageError('--collection must be a collection id');
      const files = await filesOf(positionals[0]);
      if (files.length === 0) throw new UsageError(`no files match ${positionals[0]}`);
      return ingestFiles(clientOf(options), files, collectionId, progress);
    },
  }),
  command({
    name: 'search',
    description: 'Search the tenant\'s documents (hybrid keyword and vector search) through the server',
    positionals: ['query'],
    offline: true,
    options: { ...connection, collection: { type: 'string', description: 'only this collection (and its sub-collections)' }, top: { type: 'string', description: 'results (default 5)' } },
    run: async (_services, { positionals, options }) => {
      const query = new URLSearchParams({ query: positionals[0], top_k: String(options.top ?? 5) });
      if (options.collection) query.set('collection_id', String(options.collection));
      const answer = await clientOf(options).call('GET', `/api/admin/search?${query}`);
      if (answer.status !== 200) throw new Error(`search: ${answer.status} ${answer.body.message ?? ''}`);
      return answer.body;
    },
  }),
]);

// The ingestion commands that are HTTP clients of the running server:
// uploads with a progress bar fed by the collection's aggregate status, and
// search. Imported when such a command runs.
import { glob, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { serverFetch, serverToken, serverUrl, UsageError } from 'agent-platform/sdk/cli';

/** What the server answered; `T` is the body of a success (an error body has `message`). */
interface Answer<T> {
  status: number;
  body: Partial<T> & { message?: string };
  headers: Headers;
}

export interface Client {
  call<T>(method: string, path: string, body?: BodyInit): Promise<Answer<T>>;
}

/** The aggregate status of a collection, as far as the progress bar reads it. */
interface CollectionStatus {
  total: number;
  counts: { pending: number; ingesting: number; ready: number; error: number };
  eta_seconds: number | null;
}

export function clientOf(options: { url?: string; token?: string; tenant: string }, env = process.env): Client {
  const base = serverUrl(options, env);
  const token = serverToken(options, env);
  return {
    async call<T>(method: string, route: string, body?: BodyInit): Promise<Answer<T>> {
      const response = await serverFetch(`${base}${route}`, {
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

/**
 * The id of the collection `--collection` names: an id, or a name (any
 * case): a top-level collection's first, else any one's when only one has it.
 */
export async function collectionIdOf(client: Client, value: string, tenant: string): Promise<number> {
  if (/^\d+$/.test(value)) return Number(value);
  const answer = await client.call<{ items: { collection_id: number; name: string; parent_id: number | null }[] }>('GET', '/api/admin/collections?limit=500');
  if (answer.status !== 200) throw new UsageError(`collections: ${answer.status} ${answer.body.message ?? ''}`.trim());
  const named = (answer.body.items ?? []).filter((c) => c.name.toLowerCase() === value.toLowerCase());
  const topLevel = named.filter((c) => c.parent_id === null);
  const found = topLevel.length === 1 ? topLevel : named;
  if (found.length === 1) return found[0].collection_id;
  if (found.length === 0) throw new UsageError(`no collection named "${value}" in tenant ${tenant}: create it with platform collections create "${value}" --tenant ${tenant}`);
  throw new UsageError(`several collections are named "${value}" (ids ${found.map((c) => c.collection_id).join(', ')}): give --collection <id>`);
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

export async function ingestFiles(client: Client, files: string[], collectionId: number, progress: (line: string) => void, pollMs = 1000) {
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


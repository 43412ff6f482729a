// What a sync source holds right now: each item with a stable key (a path
// relative to the directory, or the URL) and a way to read its bytes.
// Directories must lie under INGESTION_SYNC_ROOTS (the server's files are not
// the tenant's to read otherwise); URLs are fetched with private addresses
// refused unless INGESTION_SYNC_ALLOW_PRIVATE_NETWORKS is on.
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { createGuardedFetch } from '../../../core/http/guarded-fetch.ts';
import { badRequest } from '../../../core/errors.ts';

export interface SyncItem {
  key: string;
  filename: string;
  read(): Promise<Buffer>;
}

/** The directory, resolved, when it lies under one of the allowed roots. */
export async function allowedDirectory(directory: string, roots: string[]): Promise<string> {
  const resolved = path.resolve(directory);
  let real: string;
  try {
    real = await realpath(resolved);
  } catch {
    throw badRequest(`Directory not found: ${directory}`, 'SYNC_DIRECTORY_NOT_FOUND');
  }
  const inside = await Promise.all(roots.map(async (root) => {
    const realRoot = await realpath(root).catch(() => path.resolve(root));
    return real === realRoot || real.startsWith(realRoot + path.sep);
  }));
  if (!inside.some(Boolean)) throw badRequest(`Directory ${directory} is outside the allowed sync roots (INGESTION_SYNC_ROOTS)`, 'SYNC_DIRECTORY_FORBIDDEN');
  return real;
}

export async function directoryItems(directory: string, pattern: string | null, recursive: boolean, maxBytes: number): Promise<SyncItem[]> {
  const entries = await readdir(directory, { recursive, withFileTypes: true });
  const items: SyncItem[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const key = path.relative(directory, full).split(path.sep).join('/');
    if (key.split('/').some((part) => part.startsWith('.'))) continue; // hidden files and folders
    if (pattern && !path.matchesGlob(key, pattern) && !path.matchesGlob(entry.name, pattern)) continue;
    items.push({
      key,
      filename: entry.name,
      async read() {
        const info = await stat(full);
        if (info.size > maxBytes) throw new Error(`larger than ${maxBytes} bytes`);
        return readFile(full);
      },
    });
  }
  return items.sort((a, b) => a.key.localeCompare(b.key));
}

export function urlItems(urls: string[], allowPrivate: boolean, maxBytes: number): SyncItem[] {
  const guarded = createGuardedFetch(allowPrivate);
  return urls.map((url) => ({
    key: url,
    filename: decodeURIComponent(new URL(url).pathname.split('/').pop() || new URL(url).hostname),
    async read() {
      const response = await guarded(url, { signal: AbortSignal.timeout(60_000) });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`HTTP ${response.status}`);
      }
      const declared = Number(response.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > maxBytes) {
        await response.body?.cancel();
        throw new Error(`larger than ${maxBytes} bytes`);
      }
      const bytes = Buffer.from(await response.arrayBuffer());
      if (bytes.length > maxBytes) throw new Error(`larger than ${maxBytes} bytes`);
      return bytes;
    },
  }));
}

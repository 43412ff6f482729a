// What a sync source holds right now: each item with a stable key (a path
// relative to the directory, or the URL) and a way to read its bytes.
// Directories lie inside the tenant's folder of INGESTION_SYNC_ROOTS (see
// directory.ts); URLs are fetched with private addresses refused unless
// INGESTION_SYNC_ALLOW_PRIVATE_NETWORKS is on, their bodies read up to
// INGESTION_MAX_DOC_SIZE (declared or not: a chunked body is cut off there).
import { constants } from 'node:fs';
import { open, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isBoom } from '@hapi/boom';
import { readCapped } from 'agent-platform/sdk';

export interface SyncItem {
  key: string;
  filename: string;
  read(): Promise<Buffer>;
}

const tooLarge = (maxBytes: number) => new Error(`larger than ${maxBytes} bytes (INGESTION_MAX_DOC_SIZE)`);

/**
 * A listed file's bytes, read only while it still lies inside the directory: a folder swapped for a
 * symlink after the listing is caught by realpath, a file swapped for one by O_NOFOLLOW.
 */
async function readListed(directory: string, full: string, maxBytes: number): Promise<Buffer> {
  const real = await realpath(full);
  if (!real.startsWith(directory + path.sep)) throw new Error('the file now lies outside the source\'s directory');
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error('not a regular file');
    if (info.size > maxBytes) throw tooLarge(maxBytes);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * The regular files under `directory` (its real path), walked by hand: readdir's own recursion
 * descends into symlinked folders, which could lead outside the tenant's folder. Symlinks (files and
 * folders) and hidden entries are skipped.
 */
async function listFiles(directory: string, recursive: boolean): Promise<string[]> {
  const files: string[] = [];
  const walk = async (folder: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(folder, entry.name);
      if (entry.isFile()) files.push(full);
      else if (recursive && entry.isDirectory()) await walk(full);
    }
  };
  await walk(directory);
  return files;
}

export async function directoryItems(directory: string, pattern: string | null, recursive: boolean, maxBytes: number): Promise<SyncItem[]> {
  const items: SyncItem[] = [];
  for (const full of await listFiles(directory, recursive)) {
    const key = path.relative(directory, full).split(path.sep).join('/');
    const filename = path.basename(full);
    if (pattern && !path.matchesGlob(key, pattern) && !path.matchesGlob(filename, pattern)) continue;
    items.push({ key, filename, read: () => readListed(directory, full, maxBytes) });
  }
  return items.sort((a, b) => a.key.localeCompare(b.key));
}

/** `guarded`: core.http.fetch (private addresses refused unless the settings allow them). */
export function urlItems(urls: string[], guarded: typeof fetch, maxBytes: number): SyncItem[] {
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
        throw tooLarge(maxBytes);
      }
      // Chunked bodies declare nothing: the reader stops (and cancels) at the cap.
      const bytes = await readCapped(response.body ?? undefined, maxBytes).catch((err: Error) => {
        throw isBoom(err) && (err.output.payload as { code?: string }).code === 'RESPONSE_TOO_LARGE' ? tooLarge(maxBytes) : err;
      });
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  }));
}

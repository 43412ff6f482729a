// Where a directory sync source may read: only inside `<root>/<tenant_id>/`
// of one of INGESTION_SYNC_ROOTS (the roots are shared by every tenant), named
// by a path relative to that folder. The check runs when a source is created
// or changed and again at every sync (with realpath, so a symlink put there
// later cannot lead outside). A path outside the tenant's folder gets one
// error whatever lies there: status, code and message never tell whether it
// exists (no probing of the server's files).
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { badRequest } from 'agent-platform/sdk';

const outside = () => badRequest(
  'The directory must be a relative path inside this tenant\'s folder of the sync roots (<root>/<tenant_id>/ of INGESTION_SYNC_ROOTS)',
  'SYNC_DIRECTORY_FORBIDDEN',
);

const missing = (relative: string) => badRequest(`Directory not found in this tenant's sync folder: ${relative}`, 'SYNC_DIRECTORY_NOT_FOUND');

/** The tenant-relative form of what a source names: `a/b`, or `.` for the tenant's folder itself; refused when absolute or climbing (`..`). */
export function relativeDirectory(directory: string): string {
  const parts = directory.split(/[\\/]+/);
  if (path.isAbsolute(directory) || /^[a-zA-Z]:/.test(directory) || parts.includes('..')) throw outside();
  return parts.filter((part) => part !== '' && part !== '.').join('/') || '.';
}

const isWithin = (real: string, base: string) => real === base || real.startsWith(base + path.sep);

/**
 * The real path of the longest existing prefix of `candidate`, or undefined when not even `base` exists.
 * A missing path is judged by where its existing part really lies: `link/missing` under a symlink to
 * /etc is outside like `link/passwd`, and a dangling link counts as outside (where it points is not ours
 * to reveal).
 */
async function existingPrefix(candidate: string, base: string): Promise<{ real: string; complete: boolean } | undefined> {
  for (let current = candidate; ; current = path.dirname(current)) {
    const real = await realpath(current).catch(() => undefined);
    if (real !== undefined) return { real, complete: current === candidate };
    if (await lstat(current).then(() => true, () => false)) return { real: '', complete: false };
    if (current === base || path.dirname(current) === current) return undefined;
  }
}

/**
 * Resolves a source's directory for a tenant: relative paths against `<root>/<tenant_id>/` of each root
 * in turn (the first where it exists), with the real path required inside that folder. A source stored
 * before tenant folders (an absolute path) is accepted only when it lies inside the tenant's folder.
 */
export async function tenantDirectory(directory: string, roots: string[], tenantId: string): Promise<{ relative: string; real: string }> {
  const stored = path.isAbsolute(directory) ? legacyRelative(directory, roots, tenantId) : directory;
  const relative = relativeDirectory(stored);
  for (const root of roots) {
    const base = path.join(root, tenantId);
    const realBase = await realpath(base).catch(() => undefined);
    if (realBase === undefined) continue;
    const found = await existingPrefix(path.join(base, relative), base);
    if (!found) continue;
    if (!isWithin(found.real, realBase)) throw outside();
    if (found.complete) return { relative, real: found.real };
  }
  throw missing(relative);
}

function legacyRelative(directory: string, roots: string[], tenantId: string): string {
  for (const root of roots) {
    const relative = path.relative(path.join(root, tenantId), path.resolve(directory));
    if (!relative.startsWith('..') && !path.isAbsolute(relative)) return relative || '.';
  }
  throw outside();
}

// The report element's weights from the built files: the files an entry loads
// up front (its static imports, followed through the chunks) and what a lazy
// chunk (the map, the Form.io renderer) adds on top, in brotli bytes (the
// `.br` files the platform serves).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Static imports of a built ES module (not `import()`): paths relative to the file. */
function staticImports(dist: string, file: string): string[] {
  const source = readFileSync(path.join(dist, file), 'utf8');
  const found = new Set<string>();
  for (const match of source.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]*?from\s*)?["'](\.{1,2}\/[^"']+)["']/g)) {
    found.add(path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]!)));
  }
  return [...found];
}

/** The files loaded with `entry` (it included), by their static imports. */
export function closure(dist: string, entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const next of staticImports(dist, entry)) closure(dist, next, seen);
  return seen;
}

export const brotliOf = (dist: string, files: Iterable<string>) =>
  [...files].reduce((n, f) => n + (existsSync(path.join(dist, `${f}.br`)) ? statSync(path.join(dist, `${f}.br`)).size : 0), 0);

/** The chunk whose name starts with `prefix-` (hashed names). */
export function chunkNamed(dist: string, prefix: string): string {
  const name = readdirSync(path.join(dist, 'chunks')).find((f) => f.startsWith(`${prefix}-`) && f.endsWith('.js'));
  if (!name) throw new Error(`no ${prefix} chunk in ${dist}`);
  return `chunks/${name}`;
}

export interface ReportWeights { firstLoad: number; withMap: number; withFormio: number; files: number }

export function reportWeights(dist: string): ReportWeights {
  const first = closure(dist, 'platform-report.ce.js');
  // The element's own chunk is imported by the entry; the map chunk comes with the form, Form.io with a v1 type.
  const map = closure(dist, chunkNamed(dist, 'map'), new Set(first));
  const formio = closure(dist, chunkNamed(dist, 'formio'), new Set(map));
  return { firstLoad: brotliOf(dist, first), withMap: brotliOf(dist, map), withFormio: brotliOf(dist, formio), files: first.size };
}

// The import graph of the repository's own modules, read from the source:
// every `import`/`export … from` (type-only ones included: they tie the
// modules' types together), dynamic `import('…')` and side-effect import,
// resolved to a path from the repo root (relative specifiers, and
// `agent-platform/…` through package.json "exports"). Packages and Node's
// modules are kept as written, with no target.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT_DIR } from '../../core/paths.ts';

export interface Import {
  specifier: string;
  /** The imported file, from the repo root with `/` separators; undefined for a package. */
  target: string | undefined;
  /** `import type` / `export type`: erased at run time. */
  typeOnly: boolean;
  /** `import('…')`: loaded when the code runs, not with the module. */
  dynamic: boolean;
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s+'([^']+)'|^\s*import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm;

let selfExports: Record<string, string> | undefined;

async function resolve(file: string, specifier: string): Promise<string | undefined> {
  if (specifier.startsWith('.')) return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  if (specifier !== 'agent-platform' && !specifier.startsWith('agent-platform/')) return undefined;
  selfExports ??= JSON.parse(await readFile(path.join(ROOT_DIR, 'package.json'), 'utf8')).exports as Record<string, string>;
  const target = selfExports[`.${specifier.slice('agent-platform'.length)}`];
  return target === undefined ? undefined : path.posix.normalize(target);
}

/** The imports of one file (a path from the repo root). */
export async function importsOf(file: string): Promise<Import[]> {
  const source = await readFile(path.join(ROOT_DIR, file), 'utf8');
  const imports: Import[] = [];
  for (const match of source.matchAll(IMPORT)) {
    const specifier = match[3] ?? match[4] ?? match[5];
    imports.push({ specifier, target: await resolve(file, specifier), typeOnly: Boolean(match[2]), dynamic: match[5] !== undefined });
  }
  return imports;
}

/** Every file reachable from `entry` through imports of any kind, each with the file that first imported it. */
export async function reachableFrom(entry: string): Promise<Map<string, string | undefined>> {
  const parent = new Map<string, string | undefined>([[entry, undefined]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const { target } of await importsOf(file)) {
      if (target === undefined || parent.has(target)) continue;
      parent.set(target, file);
      queue.push(target);
    }
  }
  return parent;
}

/** The chain of imports from the entry of `reachableFrom` to `file`. */
export function chainTo(parent: Map<string, string | undefined>, file: string): string[] {
  const chain = [file];
  for (let at = parent.get(file); at !== undefined; at = parent.get(at)) chain.unshift(at);
  return chain;
}

/** The import cycles among `files` (strongly connected components of more than one file, or a file importing itself). */
export async function importCycles(files: string[]): Promise<string[][]> {
  const inside = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    edges.set(file, (await importsOf(file)).map((i) => i.target).filter((t): t is string => t !== undefined && inside.has(t)));
  }
  // Tarjan's algorithm.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file)!) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || edges.get(file)!.includes(file)) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

// `platform plugin init <name> [--dir <path>]`: writes a new partner plugin
// package (plugin-template.ts) into an empty or new folder, by default a
// folder named after the package's last segment in the current directory.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT_DIR } from '../paths.ts';
import { UsageError } from './commands.ts';
import { templateFiles, type TemplateNames } from './plugin-template.ts';

/** npm's rules for a new package name: lowercase, URL-safe, an optional scope, at most 214 characters. */
const PACKAGE_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

export function isPackageName(name: string): boolean {
  return name.length <= 214 && PACKAGE_NAME.test(name);
}

/** The plugin's own name from its package's: `@acme/platform-plugin-notes` -> `notes`. */
export function pluginNameOf(packageName: string): string {
  const base = packageName.split('/').pop()!.replace(/^(agent-)?platform-plugin-/, '').replace(/[^a-z0-9_-]/g, '_');
  return /^[a-z]/.test(base) ? base : `p_${base}`;
}

export interface InitResult {
  dir: string;
  package: string;
  plugin: string;
  files: string[];
}

export async function initPlugin(packageName: string, options: { dir?: string; cwd?: string } = {}): Promise<InitResult> {
  if (!isPackageName(packageName)) throw new UsageError(`plugin init: "${packageName}" is not a valid npm package name (lowercase, e.g. @acme/platform-plugin-notes)`);
  const cwd = options.cwd ?? process.cwd();
  const dir = path.resolve(cwd, options.dir ?? packageName.split('/').pop()!);
  const present = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw new UsageError(`plugin init: ${dir} cannot be read as a folder (${err.code})`);
  });
  if (present.length > 0) throw new UsageError(`plugin init: ${dir} exists and is not empty`);
  const pluginName = pluginNameOf(packageName);
  const names: TemplateNames = {
    packageName,
    pluginName,
    table: `${pluginName.replace(/-/g, '_')}_items`,
    platformPath: path.relative(dir, ROOT_DIR).split(path.sep).join('/') || '.',
  };
  const files = templateFiles(names);
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content, { flag: 'wx' });
  }
  return { dir, package: packageName, plugin: pluginName, files: Object.keys(files) };
}

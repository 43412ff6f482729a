// Finds, imports and checks the manifest's plugins, and orders them so that
// dependencies come first. A manifest entry names:
// - a path (starting with ./, ../ or /), relative to the repo root: a folder
//   holding plugin.ts (./plugins/events), a folder with a package.json whose
//   entry is the plugin, or the entry file itself;
// - anything else is an npm package name, resolved from the repo root
//   (import.meta.resolve): `@acme/platform-plugin-x`.
// A plugin's migrations are the sql/ folder next to its entry module. A plugin
// whose entry sits in this repository's plugins/ is built in (its event types are).
// Before the first plugin is imported, a resolve hook (sdk-resolution.ts) maps
// `agent-platform/sdk`, `agent-platform/sdk/testing` and `agent-platform/forms`
// to this platform's own files, so an installed, linked or packed plugin
// package finds the SDK wherever its real path is.
import { access, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Joi from 'joi';
import { ManifestError, type Manifest } from './manifest.ts';
import type { PlatformPlugin, PlatformPluginModule } from './plugin-module.ts';
import { extensionPointsProblem } from './extensions.ts';
import type { MigrationSource } from './db/migrate.ts';
import { CORE_MIGRATIONS, PLUGINS_DIR } from './paths.ts';
import { installSdkResolution } from './sdk-resolution.ts';

export interface ResolvedPlugin {
  name: string;
  module: PlatformPluginModule;
  options: Record<string, unknown>;
  /** The entry module's absolute path. */
  entry: string;
  /** Its sql/ folder (which may not exist: no migrations). */
  migrations: MigrationSource;
  /** Loaded from this repository's plugins/ folder (a package or any other path is not). */
  builtin: boolean;
}

/** `core` owns sql/ in the migration ledger and is the core's own hapi plugin. */
const RESERVED_NAMES = new Set(['core']);

const exists = (file: string) => access(file).then(() => true, () => false);

/** The entry file a package.json names for `import` (exports ".", then main, then index.js). */
async function packageEntry(dir: string): Promise<string | undefined> {
  const manifestFile = path.join(dir, 'package.json');
  if (!(await exists(manifestFile))) return undefined;
  const pkg = JSON.parse(await readFile(manifestFile, 'utf8')) as { exports?: unknown; main?: string };
  const root = pkg.exports && typeof pkg.exports === 'object' && '.' in pkg.exports ? (pkg.exports as Record<string, unknown>)['.'] : pkg.exports;
  const conditional = root && typeof root === 'object' ? root as Record<string, unknown> : undefined;
  const target = typeof root === 'string' ? root : conditional?.import ?? conditional?.default;
  return path.resolve(dir, typeof target === 'string' ? target : pkg.main ?? 'index.js');
}

async function entryOfPath(reference: string, rootDir: string): Promise<string> {
  const target = path.resolve(rootDir, reference);
  const info = await stat(target).catch(() => undefined);
  if (info?.isFile()) return target;
  if (info?.isDirectory()) {
    if (await exists(path.join(target, 'plugin.ts'))) return path.join(target, 'plugin.ts');
    const entry = await packageEntry(target);
    if (entry && (await exists(entry))) return entry;
    throw new ManifestError(`unknown plugin "${reference}": ${path.relative(rootDir, target) || '.'} has no plugin.ts and no package.json entry`);
  }
  throw new ManifestError(`unknown plugin "${reference}": ${path.relative(rootDir, path.join(target, 'plugin.ts'))} does not exist`);
}

function entryOfPackage(reference: string): string {
  try {
    // From this module, which sits in the repo root's core/: the lookup walks the
    // repo root's node_modules, whatever the current directory.
    return fileURLToPath(import.meta.resolve(reference));
  } catch (err) {
    throw new ManifestError(`unknown plugin "${reference}": no such npm package (${(err as Error).message.split('\n')[0]})`);
  }
}

/** Whether an entry module is one of this repository's plugins: inside plugins/. */
export function isBuiltinEntry(entry: string): boolean {
  const inside = path.relative(PLUGINS_DIR, entry);
  return inside !== '' && !inside.startsWith('..') && !path.isAbsolute(inside);
}

const isPath = (reference: string) => reference.startsWith('./') || reference.startsWith('../') || path.isAbsolute(reference) || reference === '.';

/** The plugins a plugin needs (hapi also takes a single name). */
export function requiredDependencies(plugin: PlatformPlugin<any, string, string>): string[] {
  return [plugin.dependencies ?? []].flat();
}

/** The plugins a plugin uses when the manifest loads them. */
export function optionalDependencies(plugin: PlatformPlugin<any, string, string>): string[] {
  return [...(plugin.optionalDependencies ?? [])];
}

/** Why a module is not a platform plugin, or undefined when it is one. */
function problemOf(module: Partial<PlatformPluginModule>): string | undefined {
  const plugin = module.plugin;
  if (!plugin || typeof plugin !== 'object') return 'it exports no hapi plugin named "plugin"';
  if (typeof plugin.name !== 'string' || !/^[a-z][a-z0-9_-]*$/.test(plugin.name)) return 'its plugin has no name (lowercase letters, digits, - and _)';
  if (RESERVED_NAMES.has(plugin.name)) return `"${plugin.name}" is a reserved name`;
  if (typeof plugin.register !== 'function') return 'its plugin has no register function';
  const names = (list: unknown) => [list ?? []].flat().every((d) => typeof d === 'string');
  if (!names(plugin.dependencies)) return 'its plugin\'s dependencies are not names';
  if (!Array.isArray(plugin.optionalDependencies ?? []) || !names(plugin.optionalDependencies)) return 'its plugin\'s optionalDependencies are not a list of names';
  const both = requiredDependencies(plugin).find((name) => optionalDependencies(plugin).includes(name));
  if (both) return `its plugin lists "${both}" as a dependency and as an optional one`;
  const points = extensionPointsProblem(plugin.name, plugin.extensionPoints);
  if (points) return points;
  if (module.optionsSchema !== undefined && !Joi.isSchema(module.optionsSchema)) return 'its optionsSchema is not a joi schema';
  const secrets = module.secrets;
  if (secrets !== undefined && (!Array.isArray(secrets) || !secrets.every((s) => typeof s?.variable === 'string'))) return 'its secrets are not a list of { variable }';
  const cli = module.cli;
  if (cli !== undefined && (!Array.isArray(cli?.commands) || typeof cli.run !== 'function')) return 'its cli is not made with defineCli';
  return undefined;
}

/** A plugin's CLI module: `cli.ts` (or `cli.js`) beside its entry module, which the CLI reads without importing the entry. */
export async function cliModuleOf(entry: string): Promise<string | undefined> {
  return siblingModuleOf(entry, 'cli');
}

/** The plugin's options module (`options.ts` or `options.js` beside its entry, whose `optionsSchema` the entry re-exports), if it has one. */
export async function optionsModuleOf(entry: string): Promise<string | undefined> {
  return siblingModuleOf(entry, 'options');
}

async function siblingModuleOf(entry: string, name: string): Promise<string | undefined> {
  for (const extension of ['.ts', '.js']) {
    const file = path.join(path.dirname(entry), name + extension);
    if (await exists(file)) return file;
  }
  return undefined;
}

/** The entry module a manifest reference names, found without importing it. */
export async function entryOf(reference: string, rootDir: string): Promise<string> {
  return isPath(reference) ? entryOfPath(reference, rootDir) : entryOfPackage(reference);
}

/** Imports one manifest reference and checks it is a platform plugin (its options are not validated here). */
export async function importPlugin(reference: string, rootDir: string): Promise<{ module: PlatformPluginModule; entry: string }> {
  const entry = await entryOf(reference, rootDir);
  installSdkResolution();
  let module: Partial<PlatformPluginModule>;
  try {
    module = (await import(pathToFileURL(entry).href)) as Partial<PlatformPluginModule>;
  } catch (err) {
    throw new ManifestError(`plugin "${reference}" cannot be loaded: ${(err as Error).message.split('\n')[0]}`);
  }
  const problem = problemOf(module) ?? (module.cli !== undefined && !(await cliModuleOf(entry)) ? 'its cli is not in cli.ts beside its entry module, where the CLI reads it' : undefined);
  if (problem) throw new ManifestError(`plugin "${reference}" is not a valid platform plugin: ${problem}`);
  return { module: module as PlatformPluginModule, entry };
}

/** Imports every plugin, validates options and dependencies, and orders them so dependencies come first. */
/** The manifest options of a plugin, validated (and defaulted) by its optionsSchema. */
export function validatedOptions(module: PlatformPluginModule, given: Record<string, unknown>): Record<string, unknown> {
  const name = module.plugin.name;
  if (module.optionsSchema) {
    const { value, error } = module.optionsSchema.validate(given);
    if (error) throw new ManifestError(`plugin "${name}" has an invalid option: ${error.message}`);
    return value;
  }
  if (Object.keys(given).length > 0) throw new ManifestError(`plugin "${name}" takes no options, got: ${Object.keys(given).join(', ')}`);
  return given;
}

export async function resolvePlugins(manifest: Manifest, rootDir: string): Promise<ResolvedPlugin[]> {
  const resolved = new Map<string, ResolvedPlugin>();
  for (const item of manifest.plugins) {
    const { module, entry } = await importPlugin(item.plugin, rootDir);
    const name = module.plugin.name;
    if (resolved.has(name)) throw new ManifestError(`plugin "${name}" is listed twice`);
    const options = validatedOptions(module, item.options);
    resolved.set(name, { name, module, options, entry, migrations: { plugin: name, dir: path.join(path.dirname(entry), 'sql') }, builtin: isBuiltinEntry(entry) });
  }
  // Optional dependencies the manifest loads order like required ones.
  const dependenciesOf = (plugin: ResolvedPlugin) => [
    ...requiredDependencies(plugin.module.plugin),
    ...optionalDependencies(plugin.module.plugin).filter((name) => resolved.has(name)),
  ];
  for (const plugin of resolved.values()) {
    for (const dependency of requiredDependencies(plugin.module.plugin)) {
      if (!resolved.has(dependency)) {
        throw new ManifestError(`plugin "${plugin.name}" depends on "${dependency}", which the manifest does not load`);
      }
    }
  }
  const ordered: ResolvedPlugin[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (plugin: ResolvedPlugin, trail: string[]) => {
    if (state.get(plugin.name) === 'done') return;
    if (state.get(plugin.name) === 'visiting') {
      throw new ManifestError(`plugins depend on each other in a cycle: ${[...trail, plugin.name].join(' -> ')}`);
    }
    state.set(plugin.name, 'visiting');
    for (const dependency of dependenciesOf(plugin)) visit(resolved.get(dependency)!, [...trail, plugin.name]);
    state.set(plugin.name, 'done');
    ordered.push(plugin);
  };
  for (const plugin of resolved.values()) visit(plugin, []);
  return ordered;
}

/** What migrate() applies for these plugins: core's first, then theirs in their (dependency) order. */
export function migrationSourcesOf(plugins: ResolvedPlugin[]): MigrationSource[] {
  return [CORE_MIGRATIONS, ...plugins.map((plugin) => plugin.migrations)];
}

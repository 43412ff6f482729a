// The deployment manifest (hapi-glue style): which plugins to load and their
// options, with ${ENV:default} substitution. Validation failures are one line.
import { readFile, access } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import YAML from 'yaml';
import Joi from 'joi';
import type { PlatformPluginModule } from './plugin-contract.ts';

export class ManifestError extends Error {
  override name = 'ManifestError';
}

export interface ManifestEntry {
  plugin: string;
  options: Record<string, unknown>;
}

export interface Manifest {
  server: { port: number; host: string };
  plugins: ManifestEntry[];
}

export interface ResolvedPlugin {
  name: string;
  module: PlatformPluginModule;
  options: Record<string, unknown>;
}

const manifestSchema = Joi.object({
  server: Joi.object({
    port: Joi.number().integer().min(0).max(65535).default(8080),
    host: Joi.string().default('127.0.0.1'),
  }).default(),
  plugins: Joi.array()
    .items(Joi.object({ plugin: Joi.string().required(), options: Joi.object().unknown().default({}) }))
    .default([]),
});

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([^}]*))?\}/g;
const TOKEN = /__ENV_(\d+)__/g;

/**
 * ${VAR} and ${VAR:default} may stand anywhere, flow maps included
 * (`{ port: ${PORT:8080} }`), which is not valid YAML as written. So each
 * placeholder becomes a plain token before parsing, and tokens are resolved
 * in the parsed values: a value that is one whole token takes YAML's typing of
 * the variable (8080 is a number), a token inside a longer string is text.
 */
export function parseWithEnv(text: string, env: Record<string, string | undefined>): unknown {
  const values: string[] = [];
  const tokenized = text.replace(PLACEHOLDER, (_m, name: string, fallback: string | undefined) => {
    const found = env[name];
    if ((found === undefined || found === '') && fallback === undefined) {
      throw new ManifestError(`manifest references \${${name}}, which is not set and has no default`);
    }
    values.push(found !== undefined && found !== '' ? found : fallback!);
    return `__ENV_${values.length - 1}__`;
  });
  const resolve = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const whole = /^__ENV_(\d+)__$/.exec(value);
      if (whole) return YAML.parse(values[Number(whole[1])]) ?? '';
      return value.replace(TOKEN, (_m, index: string) => values[Number(index)]);
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    return value;
  };
  return resolve(YAML.parse(tokenized));
}

export async function readManifest(file: string, env: Record<string, string | undefined>): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new ManifestError(`cannot read manifest ${file}`);
  }
  let parsed: unknown;
  try {
    parsed = parseWithEnv(text, env);
  } catch (err) {
    if (err instanceof ManifestError) throw err;
    throw new ManifestError(`manifest ${file} is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const { value, error } = manifestSchema.validate(parsed ?? {});
  if (error) throw new ManifestError(`manifest ${file}: ${error.message}`);
  return value as Manifest;
}

async function importPlugin(reference: string, rootDir: string): Promise<PlatformPluginModule> {
  const file = path.resolve(rootDir, reference, 'plugin.ts');
  try {
    await access(file);
  } catch {
    throw new ManifestError(`unknown plugin "${reference}": ${path.relative(rootDir, file)} does not exist`);
  }
  const module = (await import(pathToFileURL(file).href)) as PlatformPluginModule;
  if (!module.plugin?.name || typeof module.plugin.register !== 'function') {
    throw new ManifestError(`plugin "${reference}" does not export a hapi plugin named "plugin"`);
  }
  return module;
}

/** Imports every plugin, validates options and dependencies, and orders them so dependencies come first. */
export async function resolvePlugins(manifest: Manifest, rootDir: string): Promise<ResolvedPlugin[]> {
  const resolved = new Map<string, ResolvedPlugin>();
  for (const entry of manifest.plugins) {
    const module = await importPlugin(entry.plugin, rootDir);
    const name = module.plugin.name;
    if (resolved.has(name)) throw new ManifestError(`plugin "${name}" is listed twice`);
    let options = entry.options;
    if (module.optionsSchema) {
      const { value, error } = module.optionsSchema.validate(entry.options);
      if (error) throw new ManifestError(`plugin "${name}" has an invalid option: ${error.message}`);
      options = value;
    } else if (Object.keys(entry.options).length > 0) {
      throw new ManifestError(`plugin "${name}" takes no options, got: ${Object.keys(entry.options).join(', ')}`);
    }
    resolved.set(name, { name, module, options });
  }
  const dependenciesOf = (plugin: ResolvedPlugin) => [plugin.module.plugin.dependencies ?? []].flat();
  for (const plugin of resolved.values()) {
    for (const dependency of dependenciesOf(plugin)) {
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

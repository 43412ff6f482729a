// The deployment manifest (hapi-glue style): which plugins to load and their
// options, with ${ENV:default} substitution. Validation failures are one line.
// A manifest may extend another (core/manifest-layers.ts). core/plugin-loader.ts
// turns its entries into plugins.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import Joi from 'joi';
import { mergeLayers, type ManifestLayer } from './manifest-layers.ts';

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

const LISTEN_ADDRESS = 'Listen address (through the default manifest)';

export const manifestSchema = Joi.object({
  server: Joi.object({
    port: Joi.number().integer().min(0).max(65535).default(8080).description(LISTEN_ADDRESS),
    host: Joi.string().default('127.0.0.1').description(LISTEN_ADDRESS),
  }).default(),
  plugins: Joi.array()
    .items(Joi.object({ plugin: Joi.string().required(), options: Joi.object().unknown().default({}) }))
    .default([]),
});

// A default may hold one level of braces (`${URL:http://h/track/{reference}}`).
const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::((?:[^{}]|\{[^{}]*\})*))?\}/g;
const TOKEN = /__ENV_(\d+)__/g;
const WHOLE_TOKEN = /^__ENV_(\d+)__$/;

interface Placeholder {
  name: string;
  fallback: string | undefined;
}

/** The YAML with each placeholder replaced by a plain token `__ENV_<index>__`, and the placeholders by index. */
function tokenize(text: string): { tokenized: string; placeholders: Placeholder[] } {
  const placeholders: Placeholder[] = [];
  const tokenized = text.replace(PLACEHOLDER, (_m, name: string, fallback: string | undefined) => {
    placeholders.push({ name, fallback });
    return `__ENV_${placeholders.length - 1}__`;
  });
  return { tokenized, placeholders };
}

/**
 * ${VAR} and ${VAR:default} may stand anywhere, flow maps included
 * (`{ port: ${PORT:8080} }`), which is not valid YAML as written. So each
 * placeholder becomes a plain token before parsing, and tokens are resolved
 * in the parsed values: a value that is one whole token takes YAML's typing of
 * the variable (8080 is a number), a token inside a longer string is text.
 */
export function parseWithEnv(text: string, env: Record<string, string | undefined>): unknown {
  const { tokenized, placeholders } = tokenize(text);
  const values = placeholders.map(({ name, fallback }) => {
    const found = env[name];
    if ((found === undefined || found === '') && fallback === undefined) {
      throw new ManifestError(`manifest references \${${name}}, which is not set and has no default`);
    }
    return found !== undefined && found !== '' ? found : fallback!;
  });
  const resolve = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const whole = WHOLE_TOKEN.exec(value);
      if (whole) {
        const typed = parsedYaml(values[Number(whole[1])]);
        return typed && typeof typed === 'object' ? structuredClone(typed) : typed ?? '';
      }
      return value.replace(TOKEN, (_m, index: string) => values[Number(index)]);
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    return value;
  };
  return resolve(parsedYaml(tokenized));
}

/** Texts parsed so far (a process reads the same manifest and settings at every start), at most PARSED_KEPT of them. */
const parsed = new Map<string, unknown>();
const PARSED_KEPT = 256;

/** YAML.parse, once per text: the value is deep-frozen, since callers share it (resolve copies what it keeps). */
function parsedYaml(text: string): unknown {
  if (parsed.has(text)) return parsed.get(text);
  const value = deepFreeze(YAML.parse(text));
  if (parsed.size >= PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
  parsed.set(text, value);
  return value;
}

function deepFreeze(value: unknown): unknown {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** A setting a manifest feeds from the environment: the key it sets, `${variable:fallback}`. */
export interface ManifestSetting {
  key: string;
  variable: string;
  /** The default after the colon ('' for `${VAR:}`); undefined when there is none. */
  fallback: string | undefined;
}

/** The settings of a manifest's text that are one whole placeholder: the server's, and each plugin entry's options, in order. */
export function manifestSettings(text: string): { server: ManifestSetting[]; plugins: { plugin: string; options: ManifestSetting[] }[] } {
  const { tokenized, placeholders } = tokenize(text);
  const parsed = (YAML.parse(tokenized) ?? {}) as { server?: Record<string, unknown>; plugins?: { plugin?: unknown; options?: Record<string, unknown> }[] };
  const settingsOf = (values: Record<string, unknown> | undefined): ManifestSetting[] => Object.entries(values ?? {}).flatMap(([key, value]) => {
    const whole = typeof value === 'string' ? WHOLE_TOKEN.exec(value) : null;
    if (!whole) return [];
    const { name, fallback } = placeholders[Number(whole[1])];
    return [{ key, variable: name, fallback }];
  });
  return {
    server: settingsOf(parsed.server),
    plugins: (parsed.plugins ?? []).map((entry) => ({ plugin: String(entry.plugin), options: settingsOf(entry.options) })),
  };
}

/** How many manifests deep `extends` may go (a manifest extending one that extends one …). */
export const MAX_EXTENDS_DEPTH = 4;

/** One file's own values: the manifest's keys and `extends`, checked, no defaults applied (a base's values must show through). */
const layerSchema = manifestSchema.keys({
  extends: Joi.string().min(1).description('The manifest this one builds on, relative to this file'),
});

async function readLayer(file: string, env: Record<string, string | undefined>, unreadable = `cannot read manifest ${file}`): Promise<ManifestLayer> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new ManifestError(unreadable);
  }
  let parsed: unknown;
  try {
    parsed = parseWithEnv(text, env);
  } catch (err) {
    if (err instanceof ManifestError) throw err;
    throw new ManifestError(`manifest ${file} is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const { value, error } = layerSchema.validate(parsed ?? {}, { noDefaults: true });
  if (error) throw new ManifestError(`manifest ${file}: ${error.message}`);
  return value as ManifestLayer;
}

/**
 * The manifest in `file`, laid over the manifests it extends: `extends` is
 * a path relative to the file that names it (or absolute); a cycle, a base that cannot be
 * read and a chain deeper than MAX_EXTENDS_DEPTH are errors naming the files.
 */
export async function readManifest(file: string, env: Record<string, string | undefined>): Promise<Manifest> {
  const chain: string[] = [file];
  const layers: ManifestLayer[] = [await readLayer(file, env)];
  for (let layer = layers[0]; layer.extends !== undefined; layer = layers[layers.length - 1]) {
    const from = chain[chain.length - 1];
    const base = path.isAbsolute(layer.extends) ? layer.extends : path.join(path.dirname(from), layer.extends);
    const trail = [...chain, base].join(' -> ');
    if (chain.some((seen) => path.resolve(seen) === path.resolve(base))) throw new ManifestError(`manifests extend each other in a cycle: ${trail}`);
    if (chain.length > MAX_EXTENDS_DEPTH) throw new ManifestError(`manifest ${file} extends more than ${MAX_EXTENDS_DEPTH} manifests deep: ${trail}`);
    layers.push(await readLayer(base, env, `manifest ${from} extends ${base}, which cannot be read`));
    chain.push(base);
  }
  const merged = layers.reduceRight((base, extension) => mergeLayers(base, extension));
  return validateManifest(merged, file);
}

/** A manifest given as a value (a test, an embedding): the same checks as a file's, `origin` naming it in errors. */
export function validateManifest(value: unknown, origin = 'object'): Manifest {
  const { value: valid, error } = manifestSchema.validate(value);
  if (error) throw new ManifestError(`manifest ${origin}: ${error.message}`);
  return valid as Manifest;
}

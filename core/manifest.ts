// The deployment manifest (hapi-glue style): which plugins to load and their
// options, with ${ENV:default} substitution. Validation failures are one line.
// core/plugin-loader.ts turns its entries into plugins.
import { readFile } from 'node:fs/promises';
import YAML from 'yaml';
import Joi from 'joi';

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
  return validateManifest(parsed ?? {}, file);
}

/** A manifest given as a value (a test, an embedding): the same checks as a file's, `origin` naming it in errors. */
export function validateManifest(value: unknown, origin = 'object'): Manifest {
  const { value: valid, error } = manifestSchema.validate(value);
  if (error) throw new ManifestError(`manifest ${origin}: ${error.message}`);
  return valid as Manifest;
}

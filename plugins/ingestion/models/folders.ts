// Where pulled embedding models live: `<data dir>/models/<name>` (a hub name
// such as `Xenova/all-MiniLM-L6-v2` is two folders), each with a
// `platform-model.json` written last by `platform models pull` (a folder
// without it is not a pulled model), and `<data dir>/models/active.json`
// naming the model the last pull made the embedding model. Downloads are
// written under `<data dir>/models/.pull-*` and renamed into place when
// complete. Synchronous reads: the settings are derived at boot from these.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const MODEL_INFO_FILE = 'platform-model.json';
export const ACTIVE_FILE = 'active.json';
export const PULL_PREFIX = '.pull-';

/** What `platform models pull` records of a model it verified. */
export interface PulledModelInfo {
  name: string;
  hub: string;
  revision: string;
  files: { path: string; bytes: number }[];
  dims: number;
  pulled_at: string;
}

/** `owner/model` or `model`: letters, digits, `.`, `_`, `-`; no `..` (a name is a path under the models folder). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)?$/;

export function isModelName(name: string): boolean {
  return NAME.test(name) && !name.split('/').some((part) => part === '.' || part === '..' || part.endsWith('.'));
}

export const modelsDirOf = (dataDir: string) => path.join(dataDir, 'models');

export function modelFolder(modelsDir: string, name: string): string {
  if (!isModelName(name)) throw new Error(`not a model name: ${JSON.stringify(name)} (owner/model, e.g. Xenova/all-MiniLM-L6-v2)`);
  return path.join(modelsDir, ...name.split('/'));
}

/** The record of a pulled model, or undefined when the name is not one. */
export function pulledModelInfo(modelsDir: string, name: string): PulledModelInfo | undefined {
  if (!isModelName(name)) return undefined;
  const file = path.join(modelFolder(modelsDir, name), MODEL_INFO_FILE);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PulledModelInfo;
  } catch {
    return undefined;
  }
}

/** The name the last pull made the embedding model, when that model is still there. */
export function activeModelName(modelsDir: string): string | undefined {
  try {
    const { name } = JSON.parse(readFileSync(path.join(modelsDir, ACTIVE_FILE), 'utf8')) as { name?: unknown };
    return typeof name === 'string' && pulledModelInfo(modelsDir, name) ? name : undefined;
  } catch {
    return undefined;
  }
}

/** Every pulled model (`name` and `owner/name` folders holding a record), by name. */
export function pulledModels(modelsDir: string): PulledModelInfo[] {
  const found: PulledModelInfo[] = [];
  const visible = (folder: string) => {
    try {
      return readdirSync(folder).filter((entry) => !entry.startsWith('.') && statSync(path.join(folder, entry)).isDirectory());
    } catch {
      return [];
    }
  };
  for (const first of visible(modelsDir)) {
    const single = pulledModelInfo(modelsDir, first);
    if (single) {
      found.push(single);
      continue;
    }
    for (const second of visible(path.join(modelsDir, first))) {
      const nested = pulledModelInfo(modelsDir, `${first}/${second}`);
      if (nested) found.push(nested);
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

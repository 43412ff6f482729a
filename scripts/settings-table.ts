// Builds the README's configuration table from the sources: the core's
// declared settings (CORE_SETTINGS in core/config.ts), the default manifest's
// `${VAR:default}` placeholders (its server, and each plugin's options with
// the meaning given by the option's joi `.description()`), and the secrets
// each plugin reads from the environment (its `secrets` export). A variable
// fed to several plugins is one row (its first); the rows of one plugin that
// share a meaning are one row. Summary rows stand for settings described in a
// plugin's own README.
//
// Run: node scripts/settings-table.ts (prints the table) or --write (replaces
// the table in README.md). test/core/settings-table.test.ts fails when
// README.md differs from it.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Joi from 'joi';
import { CORE_SETTINGS } from '../core/config.ts';
import { manifestSchema, manifestSettings, type ManifestSetting } from '../core/manifest.ts';
import { importPlugin } from '../core/plugin-loader.ts';
import { ROOT_DIR } from '../core/paths.ts';

export const README = path.join(ROOT_DIR, 'README.md');
export const MANIFEST = path.join(ROOT_DIR, 'manifests/default.yaml');
const HEADER = ['| Variable | Default | Meaning |', '|---|---|---|'];

export interface SettingRow {
  variables: string[];
  default: string;
  description: string;
}

/**
 * Rows that are not one option: each stands before its plugin's rows, and
 * that plugin's options and secrets without a description are listed in the
 * plugin's README only (here they are covered by the summary).
 */
const SUMMARY_ROWS: { plugin: string; row: SettingRow }[] = [
  {
    plugin: 'ingestion',
    row: {
      variables: ['INGESTION_*'],
      default: 'see the ingestion README',
      description: 'Chunk size and overlap, limits (`INGESTION_MAX_DOC_SIZE` 52428800, `INGESTION_MAX_CONCURRENT` 5), stage timeouts, OCR, vision: every one listed in [plugins/ingestion](plugins/ingestion/README.md#settings)',
    },
  },
];

interface Described {
  description?: string;
  whenUnset?: string;
}

/** An object schema's key (undefined when it has none). */
function keyOf(schema: Joi.ObjectSchema | undefined, key: string): Joi.Schema | undefined {
  try {
    return schema?.extract(key);
  } catch {
    return undefined;
  }
}

function describedBy(schema: Joi.Schema | undefined): Described {
  if (!schema) return {};
  const described = schema.describe() as { flags?: { description?: string }; metas?: { whenUnset?: string }[] };
  return { description: described.flags?.description, whenUnset: described.metas?.find((meta) => meta.whenUnset)?.whenUnset };
}

function defaultText(setting: ManifestSetting, described: Described): string {
  if (setting.fallback === undefined) return 'required';
  if (setting.fallback === '') return described.whenUnset ? `unset (${described.whenUnset})` : 'unset';
  return `\`${setting.fallback}\``;
}

/** Rows that share a meaning become one: their variables, and their defaults (once when all are the same). */
function merged(rows: SettingRow[]): SettingRow[] {
  const byMeaning = new Map<string, SettingRow[]>();
  for (const row of rows) byMeaning.set(row.description, [...(byMeaning.get(row.description) ?? []), row]);
  return [...byMeaning.values()].map((group) => {
    const defaults = [...new Set(group.map((row) => row.default))];
    return {
      variables: group.flatMap((row) => row.variables),
      default: defaults.length === 1 ? defaults[0] : group.map((row) => row.default).join(', '),
      description: group[0].description,
    };
  });
}

/** The table's rows, in order: the core's, the manifest server's, then each plugin's in the manifest's order. */
export async function settingRows(manifestFile = MANIFEST): Promise<SettingRow[]> {
  const manifest = manifestSettings(await readFile(manifestFile, 'utf8'));
  const rows: SettingRow[] = CORE_SETTINGS.map((setting) => ({ variables: [setting.variable], default: setting.default, description: setting.description }));
  const seen = new Set(rows.flatMap((row) => row.variables));
  const problems: string[] = [];
  const serverRows = manifest.server.map((setting) => {
    const described = describedBy(keyOf(manifestSchema, `server.${setting.key}`));
    if (!described.description) problems.push(`server.${setting.key} has no description`);
    return { variables: [setting.variable], default: defaultText(setting, described), description: described.description ?? '' };
  });
  rows.push(...merged(serverRows));
  serverRows.forEach((row) => row.variables.forEach((variable) => seen.add(variable)));
  for (const entry of manifest.plugins) {
    const { module } = await importPlugin(entry.plugin, ROOT_DIR);
    const name = module.plugin.name;
    const summary = SUMMARY_ROWS.find((item) => item.plugin === name);
    const own: SettingRow[] = [];
    const add = (variable: string, what: string, row: { default: string; description: string | undefined }) => {
      if (seen.has(variable)) return;
      seen.add(variable);
      if (row.description) own.push({ variables: [variable], default: row.default, description: row.description });
      else if (!summary) problems.push(`${name}: ${what} (${variable}) has no description`);
    };
    for (const setting of entry.options) {
      const described = describedBy(keyOf(module.optionsSchema, setting.key));
      add(setting.variable, `option ${setting.key}`, { default: defaultText(setting, described), description: described.description });
    }
    for (const secret of module.secrets ?? []) add(secret.variable, 'secret', { default: 'unset', description: secret.description });
    if (summary) rows.push(summary.row);
    rows.push(...merged(own));
  }
  if (problems.length > 0) throw new Error(`settings without a meaning for the README's table:\n  ${problems.join('\n  ')}`);
  return rows;
}

export function renderTable(rows: SettingRow[]): string {
  const lines = rows.map((row) => `| ${row.variables.map((variable) => `\`${variable}\``).join(', ')} | ${row.default} | ${row.description} |`);
  return [...HEADER, ...lines].join('\n');
}

/** The table as README.md has it: from its header line to the last row. */
export function tableOf(readme: string): { start: number; end: number; text: string } {
  const start = readme.indexOf(HEADER[0]);
  if (start < 0) throw new Error(`README.md has no configuration table (a line "${HEADER[0]}")`);
  let end = start;
  while (end < readme.length && readme.startsWith('|', end)) {
    const next = readme.indexOf('\n', end);
    end = next < 0 ? readme.length : next + 1;
  }
  const text = readme.slice(start, end).replace(/\n$/, '');
  return { start, end: start + text.length, text };
}

async function main(): Promise<void> {
  const table = renderTable(await settingRows());
  if (!process.argv.includes('--write')) {
    console.log(table);
    return;
  }
  const readme = await readFile(README, 'utf8');
  const { start, end } = tableOf(readme);
  await writeFile(README, `${readme.slice(0, start)}${table}${readme.slice(end)}`);
  console.log(`README.md: ${table.split('\n').length - HEADER.length} settings`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}

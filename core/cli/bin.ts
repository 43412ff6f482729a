#!/usr/bin/env node
// The `platform` command: migrate, serve, and the commands plugins contribute
// (tenants, clients, users, tokens, api-keys). Prints JSON with --json.
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from '../config.ts';
import { readManifest, ManifestError } from '../manifest.ts';
import { resolvePlugins } from '../plugin-loader.ts';
import { MigrationError } from '../db/migrate.ts';
import { EmbeddedBusyError } from '../db/embedded.ts';
import { PluginContractError } from '../contract-error.ts';
import { openCliContext } from './context.ts';
import { UsageError, type CliCommand } from './commands.ts';


async function pluginCommands(): Promise<CliCommand[]> {
  const config = loadConfig();
  const plugins = await resolvePlugins(await readManifest(config.manifestPath, config.env), config.rootDir);
  return plugins.flatMap((plugin) => (plugin.module as { cli?: CliCommand[] }).cli ?? []);
}

function usage(commands: CliCommand[]): string {
  const lines = [
    'Usage: platform <command> [options] [--json]',
    '',
    '  serve                 run the platform (same as npm start)',
    '  migrate               apply pending database migrations',
  ];
  for (const command of commands) {
    const positionals = (command.positionals ?? []).map((p) => `<${p}>`).join(' ');
    const options = Object.entries(command.options ?? {})
      .map(([name, o]) => (o.required ? `--${name}${o.type === 'string' ? ' X' : ''}` : `[--${name}${o.type === 'string' ? ' X' : ''}]`))
      .join(' ');
    lines.push(`  ${[command.name, positionals, options].filter(Boolean).join(' ')}`, `      ${command.description}`);
  }
  return lines.join('\n');
}

function print(result: unknown, json: boolean): void {
  if (json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  const rows = Array.isArray(result) ? result : (result as { items?: unknown[] })?.items ?? [result];
  for (const row of rows) {
    if (row && typeof row === 'object') {
      console.log(Object.entries(row).map(([k, v]) => `${k}: ${typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : String(v)}`).join('\n'));
      console.log('');
    } else {
      console.log(String(row));
    }
  }
}

async function main(argv: string[]): Promise<void> {
  const words = argv.filter((a) => !a.startsWith('-'));
  if (words[0] === 'serve' || (words.length === 0 && argv.length === 0)) return (await import('./serve.ts')).serve();
  if (words[0] === 'migrate') {
    const context = await openCliContext();
    await context.close();
    console.log(argv.includes('--json') ? JSON.stringify({ status: 'migrated' }) : 'Migrations are current.');
    return;
  }
  const commands = await pluginCommands();
  const command = commands.find((c) => c.name === words.slice(0, 2).join(' ')) ?? commands.find((c) => c.name === words[0]);
  if (!command || argv.includes('--help')) {
    console.log(usage(commands));
    if (!command && !argv.includes('--help')) process.exitCode = 2;
    return;
  }
  const options = Object.fromEntries(
    Object.entries(command.options ?? {}).map(([name, o]) => [name, { type: o.type }]),
  ) as Record<string, { type: 'string' | 'boolean' }>;
  const parsed = parseArgs({ args: argv, options: { ...options, json: { type: 'boolean' } }, allowPositionals: true, strict: true });
  const positionals = parsed.positionals.slice(command.name.split(' ').length);
  for (const [name, option] of Object.entries(command.options ?? {})) {
    if (option.required && (parsed.values as Record<string, unknown>)[name] === undefined) throw new UsageError(`${command.name}: --${name} is required`);
  }
  if (positionals.length < (command.positionals ?? []).length) {
    throw new UsageError(`${command.name}: expected ${(command.positionals ?? []).map((p) => `<${p}>`).join(' ')}`);
  }
  const args = { positionals, options: parsed.values as never };
  if (command.offline) {
    print(await command.run(undefined, args), Boolean(parsed.values.json));
    return;
  }
  const context = await openCliContext();
  try {
    print(await command.run(context.core, args), Boolean(parsed.values.json));
  } finally {
    await context.close();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  const known = err instanceof ConfigError || err instanceof ManifestError || err instanceof MigrationError || err instanceof UsageError
    || err instanceof EmbeddedBusyError || err instanceof PluginContractError;
  const boom = err as { isBoom?: boolean; output?: { payload: { message: string; code?: string } } };
  if (known) console.error(`error: ${(err as Error).message}`);
  else if (boom.isBoom) console.error(`error: ${boom.output!.payload.message}${boom.output!.payload.code ? ` (${boom.output!.payload.code})` : ''}`);
  else if ((err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') console.error(`error: ${(err as Error).message}`);
  else console.error(err);
  process.exitCode = 1;
});

// The `platform` command: migrate, serve, config, plugin init, and the commands plugins contribute
// (tenants, clients, users, tokens, api-keys…) through their `cli` export.
// Commands run on the same core services as the server (core/services.ts, in
// `cli` mode), with the plugin's options from the manifest. Prints the result
// for people (format.ts) or, with --json, as JSON; progress goes to stderr.
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError, type PlatformConfig } from '../config.ts';
import { readManifest, ManifestError } from '../manifest.ts';
import { resolvePlugins, type ResolvedPlugin } from '../plugin-loader.ts';
import { MigrationError } from '../db/migrate.ts';
import { EmbeddedBusyError } from '../db/embedded.ts';
import { PluginContractError } from '../contract-error.ts';
import { createCoreServices, type CoreHandle } from '../services.ts';
import { UsageError, type CliCommandInfo, type CliInput, type PluginCli } from './commands.ts';
import { configReport, configRows } from './config-report.ts';
import { pluginsReport, pluginsRows } from './plugins-report.ts';
import { formatHuman } from './format.ts';
import { initPlugin } from './plugin-init.ts';
import { stderrProgress } from './progress.ts';

interface PluginCommand {
  plugin: ResolvedPlugin;
  cli: PluginCli;
  command: CliCommandInfo;
}

const CORE_COMMANDS = new Set(['serve', 'migrate', 'config', 'plugins', 'plugin init']);

function commandsOf(plugins: ResolvedPlugin[]): PluginCommand[] {
  const found = new Map<string, PluginCommand>();
  for (const plugin of plugins) {
    const cli = plugin.module.cli;
    for (const command of cli?.commands ?? []) {
      const taken = found.get(command.name);
      if (CORE_COMMANDS.has(command.name)) throw new PluginContractError(`plugin "${plugin.name}" declares the CLI command "${command.name}", which is the core's`);
      if (taken) throw new PluginContractError(`CLI command "${command.name}" is declared by plugin "${taken.plugin.name}" and by plugin "${plugin.name}"`);
      found.set(command.name, { plugin, cli: cli!, command });
    }
  }
  return [...found.values()];
}

function usage(commands: PluginCommand[]): string {
  const lines = [
    'Usage: platform <command> [options] [--json]',
    '',
    '  serve                 run the platform (same as npm start)',
    '  migrate               apply pending database migrations (core and the manifest\'s plugins)',
    '  config                print the effective configuration: core settings and each plugin\'s options (secrets redacted)',
    '  plugins               list the manifest\'s plugins in registration order: dependencies, optional ones, extension points',
    '  plugin init <name> [--dir X]',
    '      scaffold a partner plugin package (npm name <name>) in an empty or new folder',
  ];
  for (const { command } of commands) {
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
  const text = formatHuman(result);
  if (text) console.log(text);
}

/** The command line as the command declared it: its positionals after its name, its options' values. */
function argsOf(command: CliCommandInfo, argv: string[]): { args: CliInput; json: boolean } {
  const declared: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = { json: { type: 'boolean' } };
  for (const [name, option] of Object.entries(command.options ?? {})) declared[name] = { type: option.type, multiple: option.multiple === true };
  // A boolean option is also given as --no-<name> (false), unless a command
  // declares that name itself (integrations' --no-dry-run): not parseArgs'
  // allowNegative, which would take such a declared flag for a negation.
  const negations = new Map<string, string>();
  for (const [name, option] of Object.entries(command.options ?? {})) {
    if (option.type === 'boolean' && !(`no-${name}` in declared)) negations.set(`no-${name}`, name);
  }
  for (const negation of negations.keys()) declared[negation] = { type: 'boolean' };
  const parsed = parseArgs({ args: argv, options: declared, allowPositionals: true, strict: true });
  const positionals = parsed.positionals.slice(command.name.split(' ').length);
  const options: Record<string, string | string[] | boolean | undefined> = {};
  for (const [negation, name] of negations) {
    if (parsed.values[negation] === true) parsed.values[name] = argv.lastIndexOf(`--${name}`) > argv.lastIndexOf(`--${negation}`);
  }
  for (const [name, option] of Object.entries(command.options ?? {})) {
    const value = parsed.values[name];
    options[name] = Array.isArray(value) && !option.multiple ? value.at(-1) : value as string | string[] | boolean | undefined;
    if (option.required && options[name] === undefined) throw new UsageError(`${command.name}: --${name} is required`);
  }
  if (positionals.length < (command.positionals ?? []).length) {
    throw new UsageError(`${command.name}: expected ${(command.positionals ?? []).map((p) => `<${p}>`).join(' ')}`);
  }
  return { args: { positionals, options }, json: parsed.values.json === true };
}

async function withCore<T>(config: PlatformConfig, plugins: ResolvedPlugin[], work: (handle: CoreHandle) => Promise<T>): Promise<T> {
  const handle = await createCoreServices(config, { mode: 'cli', plugins });
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const words = argv.filter((a) => !a.startsWith('-'));
  if (words[0] === 'serve' || (words.length === 0 && argv.length === 0)) return (await import('./serve.ts')).serve();
  if (words[0] === 'plugin' && words[1] === 'init') {
    // Needs no configuration, manifest or database.
    const parsed = parseArgs({ args: argv, options: { dir: { type: 'string' }, json: { type: 'boolean' } }, allowPositionals: true, strict: true });
    const name = parsed.positionals[2];
    if (!name) throw new UsageError('plugin init: expected <name>');
    print(await initPlugin(name, { dir: parsed.values.dir }), parsed.values.json === true);
    return;
  }
  const config = loadConfig();
  const plugins = await resolvePlugins(await readManifest(config.manifestPath, config.env), config.rootDir);
  if (words[0] === 'migrate') {
    await withCore(config, plugins, async () => {});
    console.log(argv.includes('--json') ? JSON.stringify({ status: 'migrated' }) : 'Migrations are current.');
    return;
  }
  if (words[0] === 'config') {
    const report = configReport(config, plugins);
    print(argv.includes('--json') ? report : configRows(report), argv.includes('--json'));
    return;
  }
  if (words[0] === 'plugins' && words.length === 1) {
    const report = pluginsReport(plugins, config.rootDir);
    print(argv.includes('--json') ? report : pluginsRows(report), argv.includes('--json'));
    return;
  }
  const commands = commandsOf(plugins);
  // The longest declared name the leading words spell: `clients embed credentials rotate` before `clients embed`.
  let found: PluginCommand | undefined;
  for (let length = words.length; length > 0 && !found; length--) found = commands.find((c) => c.command.name === words.slice(0, length).join(' '));
  if (!found || argv.includes('--help')) {
    console.log(usage(commands));
    if (!found && !argv.includes('--help')) process.exitCode = 2;
    return;
  }
  const parsed = argsOf(found.command, argv);
  const reporter = stderrProgress();
  const args = { ...parsed.args, progress: reporter.progress };
  let result: unknown;
  try {
    result = found.command.offline
      ? await found.cli.run(found.command, undefined, found.plugin.options, args)
      : await withCore(config, plugins, (handle) => found.cli.run(found.command, handle.core, found.plugin.options, args));
  } finally {
    reporter.finish();
  }
  print(result, parsed.json);
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

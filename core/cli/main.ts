// The `platform` command: migrate, serve, config, plugin init, and the commands plugins contribute
// (tenants, clients, users, tokens, api-keys…) through their `cli` export.
// Commands run on the same core services as the server (core/services.ts, in
// `cli` mode), with the plugin's options from the manifest. Prints the result
// for people (format.ts) or, with --json, as JSON; progress goes to stderr.
import { parseArgs } from 'node:util';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import { loadConfig, type PlatformConfig } from '../config.ts';
import { readManifest, type Manifest } from '../manifest.ts';
import { importPlugin, migrationSourcesOf, optionsModuleOf, resolvePlugins, validatedOptions } from '../plugin-loader.ts';
import { migrate, migrationsRecorded } from '../db/migrate.ts';
import { PluginContractError } from '../contract-error.ts';
import { SQL_DIR } from '../paths.ts';
import type { CoreHandle, CoreServicesOptions } from '../services.ts';
import { loadPluginClis, type PluginCliSource } from './plugin-clis.ts';
import { UsageError, type CliCommandInfo, type CliInput, type PluginCli } from './commands.ts';
import { formatHuman } from './format.ts';
import { stderrProgress } from './progress.ts';

/** Errors that are the operator's to fix: printed as one line (the core's services, and their packages, load only for a command that needs them). */
const OPERATOR_ERRORS = new Set(['ConfigError', 'ManifestError', 'MigrationError', 'UsageError', 'EmbeddedBusyError', 'PluginContractError']);

interface PluginCommand {
  source: PluginCliSource;
  cli: PluginCli;
  command: CliCommandInfo;
}

const CORE_COMMANDS = new Set(['serve', 'migrate', 'config', 'plugins', 'plugin init']);

function commandsOf(sources: PluginCliSource[]): PluginCommand[] {
  const found = new Map<string, PluginCommand>();
  for (const source of sources) {
    const cli = source.cli;
    for (const command of cli?.commands ?? []) {
      const taken = found.get(command.name);
      if (CORE_COMMANDS.has(command.name)) throw new PluginContractError(`plugin "${source.reference}" declares the CLI command "${command.name}", which is the core's`);
      if (taken) throw new PluginContractError(`CLI command "${command.name}" is declared by plugin "${taken.source.reference}" and by plugin "${source.reference}"`);
      found.set(command.name, { source, cli: cli!, command });
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

async function withCore<T>(config: PlatformConfig, options: CoreServicesOptions, work: (handle: CoreHandle) => Promise<T>): Promise<T> {
  const { createCoreServices } = await import('../services.ts');
  const handle = await createCoreServices(config, options);
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

/**
 * A command's database is brought up to date as the server would, but the
 * plugins are imported for it only when a migration of the manifest's is not
 * yet recorded: otherwise nothing is left to apply.
 */
function migrateWhenBehind(config: PlatformConfig, manifest: Manifest, sources: PluginCliSource[]) {
  return async (pool: pg.Pool) => {
    const dirs = [SQL_DIR, ...sources.map((source) => path.join(path.dirname(source.entry), 'sql'))];
    if (await migrationsRecorded(pool, dirs)) return;
    await migrate(pool, migrationSourcesOf(await resolvePlugins(manifest, config.rootDir)));
  };
}

/**
 * A command's plugin options, validated as the server validates them: by the
 * `optionsSchema` of the plugin's options module, which its entry re-exports,
 * so that a command loads neither the entry nor its routes, GraphQL and tasks.
 * The entry is imported (for the same checks and message the server gives)
 * when the options module gives no schema or the options are invalid.
 */
async function commandOptions(source: PluginCliSource, rootDir: string): Promise<unknown> {
  const file = await optionsModuleOf(source.entry);
  const schema = file ? ((await import(pathToFileURL(file).href)) as { optionsSchema?: unknown }).optionsSchema : undefined;
  if (typeof (schema as { validate?: unknown } | undefined)?.validate === 'function') {
    const { value, error } = (schema as { validate(given: unknown): { value: unknown; error?: unknown } }).validate(source.options);
    if (!error) return value;
  }
  return validatedOptions((await importPlugin(source.reference, rootDir)).module, source.options);
}

async function main(argv: string[]): Promise<void> {
  const words = argv.filter((a) => !a.startsWith('-'));
  if (words[0] === 'serve' || (words.length === 0 && argv.length === 0)) return (await import('./serve.ts')).serve();
  if (words[0] === 'plugin' && words[1] === 'init') {
    // Needs no configuration, manifest or database.
    const parsed = parseArgs({ args: argv, options: { dir: { type: 'string' }, json: { type: 'boolean' } }, allowPositionals: true, strict: true });
    const name = parsed.positionals[2];
    if (!name) throw new UsageError('plugin init: expected <name>');
    const { initPlugin } = await import('./plugin-init.ts');
    print(await initPlugin(name, { dir: parsed.values.dir }), parsed.values.json === true);
    return;
  }
  const config = loadConfig();
  const manifest = await readManifest(config.manifestPath, config.env);
  if (words[0] === 'migrate') {
    await withCore(config, { mode: 'cli', plugins: await resolvePlugins(manifest, config.rootDir) }, async () => {});
    console.log(argv.includes('--json') ? JSON.stringify({ status: 'migrated' }) : 'Migrations are current.');
    return;
  }
  if (words[0] === 'config') {
    const { configReport, configRows } = await import('./config-report.ts');
    const report = configReport(config, await resolvePlugins(manifest, config.rootDir));
    print(argv.includes('--json') ? report : configRows(report), argv.includes('--json'));
    return;
  }
  if (words[0] === 'plugins' && words.length === 1) {
    const { pluginsReport, pluginsRows } = await import('./plugins-report.ts');
    const report = pluginsReport(await resolvePlugins(manifest, config.rootDir), config.rootDir);
    print(argv.includes('--json') ? report : pluginsRows(report), argv.includes('--json'));
    return;
  }
  const sources = await loadPluginClis(manifest, config.rootDir);
  const commands = commandsOf(sources);
  // The longest declared name the leading words spell: `clients embed credentials rotate` before `clients embed`.
  let found: PluginCommand | undefined;
  for (let length = words.length; length > 0 && !found; length--) found = commands.find((c) => c.command.name === words.slice(0, length).join(' '));
  if (!found || argv.includes('--help')) {
    console.log(usage(commands));
    if (!found && !argv.includes('--help')) process.exitCode = 2;
    return;
  }
  const { source, cli, command } = found;
  const parsed = argsOf(command, argv);
  const reporter = stderrProgress();
  const args = { ...parsed.args, progress: reporter.progress };
  let result: unknown;
  try {
    // The options are validated as the server validates them, so a malformed setting is the one line a command
    // prints, whether it needs the database or calls the server.
    const options = await commandOptions(source, config.rootDir);
    if (command.offline) {
      result = await cli.run(command, undefined, options, args);
    } else {
      const core = { mode: 'cli' as const, plugins: [], migrate: migrateWhenBehind(config, manifest, sources) };
      result = await withCore(config, core, (handle) => cli.run(command, handle.core, options, args));
    }
  } finally {
    reporter.finish();
  }
  print(result, parsed.json);
}

/** Whether an error is one of OPERATOR_ERRORS or a subclass of one (a plugin's UsageError). */
function isOperatorError(err: unknown): err is Error {
  if (err instanceof UsageError) return true;
  for (let proto = err instanceof Error ? Object.getPrototypeOf(err) : null; proto && proto !== Error.prototype; proto = Object.getPrototypeOf(proto)) {
    if (OPERATOR_ERRORS.has(proto.constructor.name)) return true;
  }
  return false;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  const known = isOperatorError(err);
  const boom = err as { isBoom?: boolean; output?: { payload: { message: string; code?: string } } };
  if (known) console.error(`error: ${(err as Error).message}`);
  else if (boom.isBoom) console.error(`error: ${boom.output!.payload.message}${boom.output!.payload.code ? ` (${boom.output!.payload.code})` : ''}`);
  else if ((err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') console.error(`error: ${(err as Error).message}`);
  else console.error(err);
  process.exitCode = 1;
});

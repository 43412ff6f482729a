// The CLI's command contract. A plugin adds commands with one typed export
// from its entry module, built on the same factory of services its register
// uses:
//
//   export const cli = defineCli(createServices, (command) => [
//     command({ name: 'notes list', description: '…', options: { tenant: { type: 'string', description: '…', required: true } },
//       run: (services, { options }) => services.notes.list(options.tenant) }),
//   ]);
//
// An option's value is typed from its declaration (a required string is a
// string). The core adds `migrate` and `serve`.
import type { CoreServices } from '../plugin-contract.ts';

export interface CliOption {
  type: 'string' | 'boolean';
  description: string;
  required?: boolean;
  /** A string option that may be given several times (`--origin a --origin b`): its value is every one, in order. */
  multiple?: boolean;
}

export type CliOptions = Record<string, CliOption>;

// A boolean is also given as --no-<name> (false).
type CliValue<O extends CliOption> = O['type'] extends 'boolean' ? boolean | undefined
  : O extends { multiple: true } ? string[] | undefined
  : O['type'] extends 'string' ? (O extends { required: true } ? string : string | undefined)
  : string | string[] | boolean | undefined;

/** The parsed values of a command's options. */
export type CliValues<O extends CliOptions> = { [K in keyof O]: CliValue<O[K]> };

/**
 * How a long command (an upload, a sync, a backfill, an import) tells how far
 * it is: one line of state ("uploaded 3/10"), each replacing the last. The
 * `platform` command shows it on stderr (rewritten in place on a terminal),
 * so stdout keeps only the result; commands never write progress themselves.
 */
export type CliProgress = (status: string) => void;

export interface CliArgs<O extends CliOptions = CliOptions> {
  positionals: string[];
  options: CliValues<O>;
  progress: CliProgress;
}

/** The arguments a command is run with; without `progress`, progress is not shown. */
export type CliInput = Omit<CliArgs, 'progress'> & { progress?: CliProgress };

/** What the CLI knows of a command without running it (usage, parsing). */
export interface CliCommandInfo<O extends CliOptions = CliOptions> {
  /** One or more words: "migrate", "tenants create", "clients embed credentials rotate" (the longest declared name wins). */
  name: string;
  description: string;
  positionals?: string[];
  options?: O;
  /** Needs no database (e.g. an HTTP client of the server, computing a signature): runs without opening one. */
  offline?: boolean;
}

export interface DatabaseCliCommand<S, O extends CliOptions = CliOptions> extends CliCommandInfo<O> {
  offline?: false;
  /** `services`: what the plugin's factory made for this command; `core`: the core's services in CLI mode. */
  run(services: S, args: CliArgs<O>, core: CoreServices): Promise<unknown>;
}

export interface OfflineCliCommand<O extends CliOptions = CliOptions> extends CliCommandInfo<O> {
  offline: true;
  run(services: undefined, args: CliArgs<O>): Promise<unknown>;
}

export type CliCommand<S, O extends CliOptions = CliOptions> = DatabaseCliCommand<S, O> | OfflineCliCommand<O>;

/** Declares one command, typing its option values from its `options`. */
export type CommandDeclarer<S> = <O extends CliOptions = Record<never, CliOption>>(command: CliCommand<S, O>) => CliCommand<S>;

/** A plugin's `cli` export, as the CLI runs it. */
export interface PluginCli {
  readonly commands: readonly CliCommandInfo[];
  /** Runs one of `commands`: offline without `core`, else on the services the plugin's factory makes from `core` and its manifest options. */
  run(command: CliCommandInfo, core: CoreServices | undefined, pluginOptions: unknown, args: CliInput): Promise<unknown>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * A plugin's commands over its one factory of services. The factory receives
 * the core's services (mode `cli`) and the plugin's options from the manifest,
 * as its register does.
 */
export function defineCli<S, Options = Record<string, unknown>>(
  createServices: (core: CoreServices, options: Options) => S | Promise<S>,
  declare: (command: CommandDeclarer<S>) => CliCommand<S>[],
): PluginCli {
  const commands = declare((command) => command);
  return {
    commands,
    async run(info, core, pluginOptions, input) {
      const args: CliArgs = { ...input, progress: input.progress ?? (() => {}) };
      const command = commands.find((candidate) => candidate === info);
      if (!command) throw new UsageError(`${info.name}: not a command of this plugin`);
      if (command.offline) return command.run(undefined, args);
      if (!core) throw new UsageError(`${command.name} needs the database`);
      // The manifest's options, validated by the plugin's optionsSchema (hapi hands them to register the same way).
      return command.run(await createServices(core, pluginOptions as Options), args, core);
    },
  };
}

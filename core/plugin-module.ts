// What a feature plugin module is: its hapi plugin (`definePlugin`), the joi
// schema of its options, the secrets it reads and its CLI commands. What the core gives the plugin
// once registered is plugin-contract.ts (CoreServices, coreOf).
import type { Server } from '@hapi/hapi';
import type Joi from 'joi';
import type { PluginCli } from './cli/commands.ts';

/** A hapi plugin as the platform loads it: `register` receives the options the manifest gave (validated by `optionsSchema`). */
export interface PlatformPlugin<Options = Record<string, unknown>> {
  name: string;
  version?: string;
  dependencies?: string | string[];
  register: (server: Server, options: Options) => void | Promise<void>;
}

/**
 * A secret a plugin reads from the environment, never from a manifest (a
 * manifest file is configuration, kept and shared as such). Settings that are
 * not secrets are manifest options. `description` is its meaning in the
 * README's settings table; a secret without one is described by its plugin's
 * README.
 */
export interface EnvironmentSecret {
  variable: string;
  description?: string;
}

/**
 * A feature plugin module exports `plugin`, its options' joi schema when it
 * takes options, `secrets` when it reads secrets from the environment, and
 * `cli` when it adds commands.
 */
export interface PlatformPluginModule {
  // Options are whatever the plugin's optionsSchema yields (hapi hands register `any` too).
  plugin: PlatformPlugin<any>;
  optionsSchema?: Joi.ObjectSchema;
  secrets?: readonly EnvironmentSecret[];
  cli?: PluginCli;
}

/** Types a plugin's options and register: `export const plugin = definePlugin<MyOptions>({name, register(server, options) {…}})`. */
export function definePlugin<Options = Record<string, unknown>>(plugin: PlatformPlugin<Options>): PlatformPlugin<Options> {
  return plugin;
}

// What a feature plugin module is: its hapi plugin (`definePlugin`), the joi
// schema of its options, the secrets it reads and its CLI commands. What the core gives the plugin
// once registered is plugin-contract.ts (CoreServices, coreOf).
// A plugin declares the plugins it needs (`dependencies`: the manifest must
// load them) and those it uses when present (`optionalDependencies`); the
// loader registers both first and hands `register` their apis, typed from
// each plugin's `PluginProperties` declaration (`{ api: … }`, what it
// exposes with `server.expose('api', …)`). No other plugin's api is reachable.
import type { PluginProperties, Server } from '@hapi/hapi';
import type Joi from 'joi';
import type { PluginCli } from './cli/commands.ts';
import type { ExtensionPointDeclarations } from './extensions.ts';

/** The api a plugin exposes (`server.expose('api', …)`), as its `PluginProperties` declaration types it. */
export type PluginApiOf<Name extends string> = Name extends keyof PluginProperties
  ? (PluginProperties[Name] extends { api: infer Api } ? Api : unknown)
  : unknown;

/** What `register` receives: the api of each required dependency, and of each optional one the manifest loads. */
export type PluginDependencies<Required extends string = never, Optional extends string = never> =
  { readonly [Name in Required]: PluginApiOf<Name> } & { readonly [Name in Optional]?: PluginApiOf<Name> };

/** A hapi plugin as the platform loads it: `register` receives the options the manifest gave (validated by `optionsSchema`) and its dependencies' apis. */
export interface PlatformPlugin<Options = Record<string, unknown>, Required extends string = string, Optional extends string = string> {
  name: string;
  version?: string;
  /** Plugins this one needs: the manifest must load them, and they register first. */
  dependencies?: readonly Required[];
  /** Plugins this one uses when the manifest loads them: they register first when present. */
  optionalDependencies?: readonly Optional[];
  /** The extension points this plugin owns: `<name>.<what>` to what a contribution adds (see core/extensions.ts). */
  extensionPoints?: ExtensionPointDeclarations;
  register: (server: Server, options: Options, dependencies: PluginDependencies<Required, Optional>) => void | Promise<void>;
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
  plugin: PlatformPlugin<any, string, string>;
  optionsSchema?: Joi.ObjectSchema;
  secrets?: readonly EnvironmentSecret[];
  cli?: PluginCli;
}

/**
 * Types a plugin: its dependencies' apis from the names it lists, its options
 * from the type of `register`'s `options` parameter:
 * `export const plugin = definePlugin({ name, dependencies: ['tenancy'], optionalDependencies: ['forms'], register(server, options: MyOptions, { tenancy, forms }) {…} })`.
 */
export function definePlugin<const Required extends string = never, const Optional extends string = never, Options = Record<string, unknown>>(
  plugin: PlatformPlugin<Options, Required, Optional>,
): PlatformPlugin<Options, Required, Optional>;
/** The form with the options' type given (`definePlugin<MyOptions>({…})`): dependencies' apis are `unknown`-typed. */
export function definePlugin<Options>(plugin: PlatformPlugin<Options, string, string>): PlatformPlugin<Options, string, string>;
export function definePlugin(plugin: PlatformPlugin<unknown, string, string>): PlatformPlugin<unknown, string, string> {
  return plugin;
}

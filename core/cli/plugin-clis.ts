// The CLI's view of the manifest's plugins: each one's commands, read from its
// CLI module, the `cli.ts` (or `cli.js`) beside its entry module, without
// importing the entry (its routes, services and their packages), so that
// `platform --help` and a command load only what they need. A plugin without
// such a file has no commands.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ManifestError, type Manifest } from '../manifest.ts';
import { cliModuleOf, entryOf } from '../plugin-loader.ts';
import { installSdkResolution } from '../sdk-resolution.ts';
import type { PluginCli } from './commands.ts';

export interface PluginCliSource {
  /** The manifest's reference (`./plugins/tenancy`, `@acme/platform-plugin-demo`). */
  reference: string;
  entry: string;
  /** The options the manifest gives, not yet validated by the plugin's schema. */
  options: Record<string, unknown>;
  cli: PluginCli | undefined;
}

const isCli = (cli: unknown): cli is PluginCli =>
  typeof cli === 'object' && cli !== null && Array.isArray((cli as PluginCli).commands) && typeof (cli as PluginCli).run === 'function';

/** Each manifest plugin's commands, in manifest order. */
export async function loadPluginClis(manifest: Manifest, rootDir: string): Promise<PluginCliSource[]> {
  installSdkResolution();
  const sources: PluginCliSource[] = [];
  for (const item of manifest.plugins) {
    const entry = await entryOf(item.plugin, rootDir);
    const file = await cliModuleOf(entry);
    let cli: unknown;
    if (file) {
      try {
        cli = ((await import(pathToFileURL(file).href)) as { cli?: unknown }).cli;
      } catch (err) {
        throw new ManifestError(`plugin "${item.plugin}" cannot be loaded: ${path.basename(file)}: ${(err as Error).message.split('\n')[0]}`);
      }
      if (!isCli(cli)) throw new ManifestError(`plugin "${item.plugin}" is not a valid platform plugin: its ${path.basename(file)} exports no cli made with defineCli`);
    }
    sources.push({ reference: item.plugin, entry, options: item.options, cli: cli as PluginCli | undefined });
  }
  return sources;
}

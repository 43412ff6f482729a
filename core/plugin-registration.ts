// Registers the manifest's plugins on the server, in the loader's order: each
// receives the apis of the plugins it declares (required and optional, read
// when used, so an api exposed at the end of a dependency's register is there)
// and nothing else. Extension points are declared before the first register.
import type { Server } from '@hapi/hapi';
import type { ExtensionRegistry } from './extensions.ts';
import { optionalDependencies, requiredDependencies, type ResolvedPlugin } from './plugin-loader.ts';

/** The declared dependencies' apis, as `register`'s third argument: undefined for an optional one the manifest does not load. */
export function dependencyApis(server: Server, plugin: ResolvedPlugin): Record<string, unknown> {
  const apis: Record<string, unknown> = {};
  for (const name of [...requiredDependencies(plugin.module.plugin), ...optionalDependencies(plugin.module.plugin)]) {
    Object.defineProperty(apis, name, {
      enumerable: true,
      get: () => (server.plugins as unknown as Record<string, { api?: unknown } | undefined>)[name]?.api,
    });
  }
  return Object.freeze(apis);
}

export async function registerPlugins(server: Server, plugins: ResolvedPlugin[], extensions: ExtensionRegistry): Promise<void> {
  for (const plugin of plugins) extensions.declare(plugin.name, plugin.module.plugin.extensionPoints);
  for (const plugin of plugins) {
    const { name, version, register } = plugin.module.plugin;
    const apis = dependencyApis(server, plugin);
    await server.register({
      plugin: { name, version, dependencies: requiredDependencies(plugin.module.plugin), register: (registered: Server, options: unknown) => register(registered, options, apis) },
      options: plugin.options,
    });
  }
  extensions.assertConsumed();
}

// What `platform plugins` prints: the manifest's plugins in the order they
// register, each with where it comes from, the plugins it needs and those it
// uses when present, and the extension points it declares.
import path from 'node:path';
import { optionalDependencies, requiredDependencies, type ResolvedPlugin } from '../plugin-loader.ts';

export interface PluginReport {
  name: string;
  version: string | null;
  builtin: boolean;
  /** The entry module, relative to the platform's root when inside it. */
  entry: string;
  dependencies: string[];
  /** Each optional dependency, and whether the manifest loads it. */
  optional_dependencies: { name: string; loaded: boolean }[];
  extension_points: { name: string; description: string }[];
}

export function pluginsReport(plugins: ResolvedPlugin[], rootDir: string): PluginReport[] {
  const loaded = new Set(plugins.map((plugin) => plugin.name));
  return plugins.map((plugin) => {
    const definition = plugin.module.plugin;
    const relative = path.relative(rootDir, plugin.entry);
    return {
      name: plugin.name,
      version: definition.version ?? null,
      builtin: plugin.builtin,
      entry: relative.startsWith('..') ? plugin.entry : relative,
      dependencies: requiredDependencies(definition),
      optional_dependencies: optionalDependencies(definition).map((name) => ({ name, loaded: loaded.has(name) })),
      extension_points: Object.entries(definition.extensionPoints ?? {}).map(([name, description]) => ({ name, description })),
    };
  });
}

/** One line per plugin for people: `name  version  needs a, b  uses c (not loaded)  points x.y`. */
export function pluginsRows(report: PluginReport[]): Record<string, string>[] {
  return report.map((plugin) => ({
    plugin: plugin.name,
    version: plugin.version ?? '',
    needs: plugin.dependencies.join(', '),
    uses: plugin.optional_dependencies.map((d) => (d.loaded ? d.name : `${d.name} (not loaded)`)).join(', '),
    extension_points: plugin.extension_points.map((p) => p.name).join(', '),
    entry: plugin.entry,
  }));
}

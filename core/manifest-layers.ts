// A manifest that extends another: its `plugins` are appended to the base's,
// an entry naming a plugin the base lists replacing the base's entry in place
// (options included), and its `server` keys override the base's.
import path from 'node:path';

/** One manifest file's own values, before defaults (an entry's options may be left out). */
export interface ManifestLayer {
  extends?: string;
  server?: Record<string, unknown>;
  plugins?: { plugin: string; options?: Record<string, unknown> }[];
}

/**
 * What makes two entries name the same plugin: the reference itself, a
 * path reference normalised (`./plugins/events/` is `./plugins/events`).
 */
export function referenceKey(reference: string): string {
  if (!/^(\.{1,2}\/|\/|\.$)/.test(reference)) return `package:${reference}`;
  return `path:${path.posix.normalize(reference).replace(/(.)\/+$/, '$1')}`;
}

/** The base with the extension laid over it. */
export function mergeLayers(base: ManifestLayer, extension: ManifestLayer): ManifestLayer {
  const replacing = new Map((extension.plugins ?? []).map((entry) => [referenceKey(entry.plugin), entry]));
  const plugins = (base.plugins ?? []).map((entry) => {
    const key = referenceKey(entry.plugin);
    const replacement = replacing.get(key);
    if (!replacement) return entry;
    replacing.delete(key);
    return replacement;
  });
  const kept = new Set(replacing.values());
  return {
    server: { ...base.server, ...extension.server },
    plugins: [...plugins, ...(extension.plugins ?? []).filter((entry) => kept.has(entry))],
  };
}

// Where a plugin's `agent-platform/...` imports land: in the running
// platform's own modules, wherever the plugin lives. A package installed from
// a registry, a folder or a tarball, or linked from elsewhere, resolves its
// imports from its real path, where no `agent-platform` package is found
// (the platform is not on the registry: a plugin declares it an optional peer
// dependency). A synchronous resolve hook (node:module registerHooks) maps
// every subpath of package.json "exports" (`agent-platform/sdk`,
// `agent-platform/sdk/testing`, `agent-platform/sdk/cli`, `agent-platform/forms`, and
// `agent-platform/plugins/<name>`: a plugin's api.ts) to the file it names
// in this repository, the same URL the platform's own imports reach, so a
// plugin shares the platform's module instances. Every other specifier
// resolves as Node does.
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT_DIR } from './paths.ts';

const PACKAGE = 'agent-platform';

/** `agent-platform/<subpath>` -> the file URL package.json "exports" names for it (a `*` subpath stands for one name). */
export function sdkTargets(): (specifier: string) => string | undefined {
  const pkg = JSON.parse(readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as { exports: Record<string, string> };
  const exact = new Map<string, string>();
  const patterns: { prefix: string; target: string }[] = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const specifier = path.posix.join(PACKAGE, subpath);
    if (specifier.endsWith('/*')) patterns.push({ prefix: specifier.slice(0, -1), target });
    else exact.set(specifier, pathToFileURL(path.resolve(ROOT_DIR, target)).href);
  }
  return (specifier) => {
    const found = exact.get(specifier);
    if (found) return found;
    for (const { prefix, target } of patterns) {
      const name = specifier.startsWith(prefix) ? specifier.slice(prefix.length) : '';
      if (/^[a-z][a-z0-9-]*$/.test(name)) return pathToFileURL(path.resolve(ROOT_DIR, target.replace('*', name))).href;
    }
    return undefined;
  };
}

let installed = false;

/** Installs the hook once per process; call it before any plugin is imported. */
export function installSdkResolution(): void {
  if (installed) return;
  installed = true;
  const targetOf = sdkTargets();
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const url = specifier.startsWith(`${PACKAGE}/`) ? targetOf(specifier) : undefined;
      return url ? { url, shortCircuit: true } : nextResolve(specifier, context);
    },
  });
}

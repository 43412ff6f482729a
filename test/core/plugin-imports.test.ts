// The plugin contract and the core's layering, checked on the source: plugins
// reach the platform only through agent-platform/sdk (never core/ or the
// workflow engine by path, never the test harness), and another plugin only
// through the types of its api.ts (never its stores or services). The SDK
// entry only re-exports core modules, none of which imports it back, and it
// never loads the harness; core has no import cycle, type imports included.
import t from 'tap';
import { glob, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT_DIR } from '../../core/paths.ts';
import { chainTo, importCycles, importsOf, reachableFrom } from './import-graph.ts';

const PLUGINS = path.join(ROOT_DIR, 'plugins');
const IMPORT = /^\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm;

t.test('plugins import core and the workflow engine only through agent-platform/sdk, and each other only through api.ts types', async (t) => {
  const problems: string[] = [];
  let files = 0;
  for await (const file of glob('**/*.ts', { cwd: PLUGINS })) {
    const owner = file.split(path.sep)[0];
    // A plugin's tests (plugins/<name>/test/) are not plugin code: they use the harness and read internals.
    if (file.split(path.sep)[1] === 'test') continue;
    files++;
    const source = await readFile(path.join(PLUGINS, file), 'utf8');
    for (const match of source.matchAll(IMPORT)) {
      const specifier = match[3] ?? match[4];
      if (specifier === 'agent-platform/sdk/testing') problems.push(`${file}: imports ${specifier} (the harness is for tests only)`);
      if (!specifier.startsWith('.')) continue;
      const target = path.relative(ROOT_DIR, path.resolve(PLUGINS, path.dirname(file), specifier));
      if (target.startsWith(`core${path.sep}`)) problems.push(`${file}: imports ${specifier} (use agent-platform/sdk)`);
      // The engine is the workflows plugin's own; event patterns, filters and templates come from agent-platform/sdk.
      if (target.startsWith(`workflows${path.sep}`) && owner !== 'workflows') problems.push(`${file}: imports ${specifier} (use agent-platform/sdk)`);
      const [top, other, ...rest] = target.split(path.sep);
      if (top === 'plugins' && other !== owner && !(match[2] && rest.join('/') === 'api.ts')) {
        problems.push(`${file}: imports ${specifier} (another plugin: only \`import type\` from its api.ts)`);
      }
    }
  }
  t.ok(files > 100, `${files} files read`);
  t.same(problems, []);
});

const SDK_ENTRY = 'core/sdk/index.ts';

/** Every .ts file under `folder`, as a path from the repo root with `/` separators. */
async function sourcesUnder(folder: string): Promise<string[]> {
  const files: string[] = [];
  for await (const file of glob('**/*.ts', { cwd: path.join(ROOT_DIR, folder) })) files.push(`${folder}/${file.split(path.sep).join('/')}`);
  return files.sort();
}

t.test('no core module imports the SDK entry (agent-platform/sdk): it imports the module that defines what it needs', async (t) => {
  const problems: string[] = [];
  for (const file of await sourcesUnder('core')) {
    if (file.startsWith('core/sdk/')) continue;
    for (const { specifier, target } of await importsOf(file)) {
      if (target === SDK_ENTRY) problems.push(`${file}: imports ${specifier}`);
    }
  }
  t.same(problems, []);
});

t.test('the SDK entry defines nothing: it only re-exports (`export … from`)', async (t) => {
  const source = await readFile(path.join(ROOT_DIR, SDK_ENTRY), 'utf8');
  const rest = source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/\bexport\s+(type\s+)?(\*(\s+as\s+\w+)?|\{[^}]*\})\s+from\s+'[^']+';/g, '')
    .trim();
  t.equal(rest, '', 'nothing but re-exports and comments');
});

t.test('the SDK entry never loads the test harness (agent-platform/sdk/testing), even through another module', async (t) => {
  const reached = await reachableFrom(SDK_ENTRY);
  const harness = [...reached.keys()].filter((file) => (file.startsWith('core/sdk/') && file !== SDK_ENTRY) || file.startsWith('test/'));
  t.same(harness.map((file) => chainTo(reached, file).join(' -> ')), []);
});

t.test('the workflow engine imports only its own modules (pure, Deno-compatible)', async (t) => {
  const problems: string[] = [];
  for (const file of await sourcesUnder('workflows/engine')) {
    for (const { specifier, target } of await importsOf(file)) {
      if (!target?.startsWith('workflows/engine/')) problems.push(`${file}: imports ${specifier}`);
    }
  }
  t.same(problems, []);
});

t.test('core has no import cycle, type imports included', async (t) => {
  const files = await sourcesUnder('core');
  t.ok(files.length > 50, `${files.length} files read`);
  t.same(await importCycles(files), []);
});

t.test('a plugin\'s cli.ts loads only its declarations: no service, route or package (implementations are imported when a command runs)', async (t) => {
  const problems: string[] = [];
  const clis = (await sourcesUnder('plugins')).filter((file) => /^plugins\/[^/]+\/cli\.ts$/.test(file));
  t.ok(clis.length > 10, `${clis.length} cli.ts read`);
  for (const cli of clis) {
    const seen = new Set([cli]);
    const queue = [cli];
    while (queue.length > 0) {
      const file = queue.shift()!;
      for (const { specifier, target, typeOnly, dynamic } of await importsOf(file)) {
        if (typeOnly || dynamic) continue;
        if (target === undefined) {
          if (!specifier.startsWith('node:')) problems.push(`${cli}: ${file} imports ${specifier} when loaded`);
          continue;
        }
        if (target === SDK_ENTRY || /\/(services|plugin)\.ts$/.test(target) || /\/(services|store|routes)\//.test(target)) {
          problems.push(`${cli}: ${file} imports ${specifier} when loaded (import it in the command's run)`);
        }
        if (!seen.has(target)) {
          seen.add(target);
          queue.push(target);
        }
      }
    }
  }
  t.same(problems, []);
});

// The plugin contract, checked on the source: plugins reach the platform only
// through agent-platform/sdk (never core/ by path), and another plugin only
// through the types of its api.ts (never its stores or services).
import t from 'tap';
import { glob, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT_DIR } from '../../core/paths.ts';

const PLUGINS = path.join(ROOT_DIR, 'plugins');
const IMPORT = /^\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm;

t.test('plugins import core only through agent-platform/sdk, and each other only through api.ts types', async (t) => {
  const problems: string[] = [];
  let files = 0;
  for await (const file of glob('**/*.ts', { cwd: PLUGINS })) {
    files++;
    const owner = file.split(path.sep)[0];
    const source = await readFile(path.join(PLUGINS, file), 'utf8');
    for (const match of source.matchAll(IMPORT)) {
      const specifier = match[3] ?? match[4];
      if (!specifier.startsWith('.')) continue;
      const target = path.relative(ROOT_DIR, path.resolve(PLUGINS, path.dirname(file), specifier));
      if (target.startsWith(`core${path.sep}`)) problems.push(`${file}: imports ${specifier} (use agent-platform/sdk)`);
      const [top, other, ...rest] = target.split(path.sep);
      if (top === 'plugins' && other !== owner && !(match[2] && rest.join('/') === 'api.ts')) {
        problems.push(`${file}: imports ${specifier} (another plugin: only \`import type\` from its api.ts)`);
      }
    }
  }
  t.ok(files > 100, `${files} files read`);
  t.same(problems, []);
});

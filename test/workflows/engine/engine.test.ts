// Runs the engine's cases under node-tap (they also run under Deno: engine.deno.ts).
import t from 'tap';
import { cases } from './engine-cases.ts';

for (const { name, fn } of cases) {
  t.test(name, async () => fn());
}

t.test('the engine imports nothing but its own files (web standards only, Deno-compatible)', async (t) => {
  const { readdir, readFile } = await import('node:fs/promises');
  const dir = new URL('../../../workflows/engine/', import.meta.url);
  for (const file of (await readdir(dir)).filter((name) => name.endsWith('.ts'))) {
    const source = await readFile(new URL(file, dir), 'utf8');
    const imports = [...source.matchAll(/from\s+['"]([^'"]+)['"]/g)].map((match) => match[1]);
    t.ok(imports.every((specifier) => specifier.startsWith('./')), `${file} imports only relative modules: ${imports.join(', ')}`);
    t.notMatch(source, /\b(process|Buffer|require)\b[.(]/, `${file} uses no Node globals`);
  }
});

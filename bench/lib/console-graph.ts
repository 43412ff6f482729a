// The console's weights from its built files (plugins/console/app/dist): the
// first load (index.html, the stylesheet, the entry and its static imports)
// and what each section's lazy chunk adds on top, in brotli bytes (the `.br`
// files the platform serves).
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliOf, closure } from './widget-graph.ts';
import { SECTION_ORDER } from '../../plugins/console/app/sections/contract.ts';

export interface ConsoleWeights { firstLoad: number; files: number; sections: { key: string; brotli: number; files: number }[] }

export function consoleWeights(dist: string): ConsoleWeights {
  const assets = path.join(dist, 'assets');
  const names = readdirSync(assets).filter((n) => !n.endsWith('.br'));
  const entry = names.find((n) => /^console-[A-Z0-9]+\.js$/.test(n));
  const css = names.find((n) => /^console-style-[A-Z0-9]+\.css$/.test(n));
  if (!entry || !css) throw new Error(`the console is not built in ${dist} (node scripts/build-console.ts)`);
  const first = closure(assets, entry);
  const page = statSync(path.join(dist, 'index.html.br')).size;
  const firstLoad = page + brotliOf(assets, [...first, css]);
  const sections = SECTION_ORDER.flatMap((key) => {
    const chunk = names.find((n) => new RegExp(`^${key}-[A-Z0-9]+\\.js$`).test(n));
    if (!chunk) return [];
    const added = [...closure(assets, chunk, new Set(first))].filter((f) => !first.has(f));
    return [{ key, brotli: brotliOf(assets, added), files: added.length }];
  });
  return { firstLoad, files: first.size + 2, sections };
}

// npm run bench:console: the web console's weights from its built files,
// brotli: the first load (before any section's chunk) against its budget of
// 150 KB, and each section's own chunk. Builds nothing itself: the npm
// script builds the console first.
import path from 'node:path';
import { consoleWeights } from './lib/console-graph.ts';

const BUDGET = 150 * 1024;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const weights = consoleWeights(path.resolve('plugins/console/app/dist'));

console.log('| What | Brotli | Baseline | Ratio |');
console.log('|---|---|---|---|');
console.log(`| first load (index.html, stylesheet, entry and its static imports) | ${kb(weights.firstLoad)} (${weights.files} files) | budget 150 KB | ${(weights.firstLoad / BUDGET).toFixed(3)} |`);
for (const section of weights.sections) console.log(`| section ${section.key}: its chunk | ${kb(section.brotli)} (${section.files} file${section.files === 1 ? '' : 's'}) | first load ${kb(weights.firstLoad)} | ${(section.brotli / weights.firstLoad).toFixed(2)} |`);
if (weights.firstLoad > BUDGET) {
  console.error(`first load ${kb(weights.firstLoad)} is over the budget of ${kb(BUDGET)}`);
  process.exitCode = 1;
}

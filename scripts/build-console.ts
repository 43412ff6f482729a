// Bundles the web console (plugins/console/app) with esbuild into
// plugins/console/app/dist: index.html (the page, naming the hashed entry and
// stylesheet), and under assets/ the entry, one lazy chunk per section
// (dynamic imports of sections/registry.ts), shared chunks and the
// stylesheet, every name hashed (served immutable), each with a .br copy.
// Run: node scripts/build-console.ts [--quiet]
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sizeReport, writeBrotliCopies } from './build-assets.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const app = path.join(root, 'plugins/console/app');
const dist = path.join(app, 'dist');
const quiet = process.argv.includes('--quiet');

async function main(): Promise<void> {
  const started = performance.now();
  await rm(dist, { recursive: true, force: true });
  await mkdir(path.join(dist, 'assets'), { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { console: path.join(app, 'main.ts'), 'console-style': path.join(app, 'styles/console.css') },
    outdir: path.join(dist, 'assets'),
    bundle: true, splitting: true, format: 'esm', platform: 'browser', target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
    minify: true, legalComments: 'none', sourcemap: false, metafile: true,
    entryNames: '[name]-[hash]', chunkNames: '[name]-[hash]',
    // A section's third-party stylesheet is imported as text (Forms: Form.io's and Bootstrap's, adopted in the page as constructable sheets).
    loader: { '.min.css': 'text' },
    // Form.io's CommonJS code reads Node's `global` and `process.env.NODE_ENV`.
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    logLevel: quiet ? 'error' : 'warning',
  });
  const outputOf = (entry: string) => {
    const found = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint && path.resolve(root, output.entryPoint) === path.join(app, entry));
    if (!found) throw new Error(`no output for ${entry}`);
    return path.basename(found[0]);
  };
  const template = await readFile(path.join(app, 'index.html'), 'utf8');
  await writeFile(path.join(dist, 'index.html'), template.replace('{{entry}}', outputOf('main.ts')).replace('{{css}}', outputOf('styles/console.css')));
  const files = await writeBrotliCopies(dist);
  if (!quiet) {
    console.log(`console built in ${Math.round(performance.now() - started)} ms: ${path.relative(root, dist)}`);
    for (const line of await sizeReport(dist, files)) console.log(line);
  }
}

await main();

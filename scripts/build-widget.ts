// Bundles the chat widget and the report element (plugins/embed/widget/src)
// with esbuild into plugins/embed/widget/dist: ESM entries with code splitting
// (the launcher is small; the panel, Markdown and sanitizer are a chunk
// imported on open; the Leaflet map and the Form.io renderer are chunks
// imported when first shown),
// hashed chunk names (served immutable), the CSS file, and a .br copy of each
// file (served to browsers that accept brotli). React and Vue stay external
// (peer dependencies). Run: node scripts/build-widget.ts [--quiet]
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sizeReport, writeBrotliCopies } from './build-assets.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const widget = path.join(root, 'plugins/embed/widget');
const src = path.join(widget, 'src');
const dist = path.join(widget, 'dist');
const quiet = process.argv.includes('--quiet');

export const ENTRY_FILES = ['platform-chat.ce.js', 'platform-chat.es.js', 'platform-chat.react.js', 'platform-chat.vue.js', 'platform-chat.css', 'platform-report.ce.js', 'platform-report.es.js'];

async function main(): Promise<void> {
  const started = performance.now();
  await rm(dist, { recursive: true, force: true });
  await mkdir(dist, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: {
      'platform-chat.ce': path.join(src, 'ce.ts'),
      'platform-chat.es': path.join(src, 'es.ts'),
      'platform-chat.react': path.join(src, 'react.ts'),
      'platform-chat.vue': path.join(src, 'vue.ts'),
      'platform-report.ce': path.join(src, 'report-ce.ts'),
      'platform-report.es': path.join(src, 'report-es.ts'),
    },
    outdir: dist,
    bundle: true, splitting: true, format: 'esm', platform: 'browser', target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
    minify: true, legalComments: 'none', sourcemap: false,
    entryNames: '[name]', chunkNames: 'chunks/[name]-[hash]',
    external: ['react', 'react-dom', 'vue'],
    loader: { '.css': 'text' },
    // Form.io's CommonJS code reads Node's `global`.
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    logLevel: quiet ? 'error' : 'warning',
  });
  // The shared stylesheet (package `./style.css`, hosted platform-chat.css): tokens, launcher and panel.
  const css = await Promise.all(['tokens.css', 'launcher.css', 'panel.css'].map((f) => readFile(path.join(src, 'styles', f), 'utf8')));
  await writeFile(path.join(dist, 'platform-chat.css'), css.join('\n'));
  const files = await writeBrotliCopies(dist);
  if (!quiet) {
    console.log(`widget built in ${Math.round(performance.now() - started)} ms: ${path.relative(root, dist)}`);
    for (const line of await sizeReport(dist, files)) console.log(line);
  }
}

await main();

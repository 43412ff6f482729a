// Benchmark of the chat widget: bytes over the wire, brotli, of the
// launcher before opening and of the whole widget after opening, as the ratio
// to Chatwoot's 300 KB widget budget; and, in headless Chromium, the time from
// mount to the launcher's first paint and to an opened, ready panel, against
// a baseline measured in the same run (a bare custom element painting a
// button: the browser's own floor). Chromium advertises brotli only over
// HTTPS, so over this http loopback it is sent gzip: the brotli figures are
// the sizes of the `.br` files the platform serves for exactly the URLs the
// browser loaded; the gzip bytes it really received are printed beside them.
// Then the report element's weights (<platform-report>): its first load, with
// the map chunk and with the Form.io chunk, from the built files' imports.
// Run: npm run bench:widget (builds the widget, needs chromium-headless-shell).
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { reportWeights } from './lib/widget-graph.ts';
import { browserMissing, elementPage, newVisitor, tokenScript, widgetFixture, type WidgetFixture } from '../plugins/embed/test/widget/browser.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const CHATWOOT_CAP = 300 * 1024;
const DIST = path.resolve('plugins/embed/widget/dist');

const missing = browserMissing();
if (missing) {
  console.error(`bench:widget: ${missing}`);
  process.exit(1);
}
const teardowns: (() => unknown)[] = [];
const t = { teardown: (fn: () => unknown) => void teardowns.push(fn) };

function brotliBytes(url: string): number {
  const file = path.join(DIST, new URL(url).pathname.replace(/^\/embed\/v1\//, ''));
  return existsSync(`${file}.br`) ? statSync(`${file}.br`).size : 0;
}

interface Loaded { brotli: number; wire: number; files: number }

async function weigh(f: WidgetFixture): Promise<{ launcher: Loaded; opened: Loaded }> {
  const context = await f.browser.newContext();
  const page = await context.newPage();
  const seen: { url: string; wire: Promise<number> }[] = [];
  page.on('requestfinished', (request) => {
    if (request.url().includes('/embed/v1/')) seen.push({ url: request.url(), wire: request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize) });
  });
  f.host.page('/weigh', elementPage(f, 'launcher'));
  await page.goto(`${f.host.origin}/weigh`);
  await page.locator('platform-chat [part="launcher"]').waitFor();
  await page.waitForLoadState('networkidle');
  const sum = async (items: typeof seen): Promise<Loaded> => ({
    brotli: items.reduce((n, i) => n + brotliBytes(i.url), 0), wire: (await Promise.all(items.map((i) => i.wire))).reduce((a, b) => a + b, 0), files: items.length,
  });
  const launcher = await sum([...seen]);
  await page.locator('platform-chat [part="launcher"]').click();
  await page.locator('platform-chat textarea').waitFor();
  await page.waitForLoadState('networkidle');
  const opened = await sum([...seen]);
  await context.close();
  return { launcher, opened };
}

/** One cold load (a fresh browser context): ms from mount to the launcher's paint, and from the click to a ready panel. */
async function timeOnce(f: WidgetFixture, html: string, open: boolean): Promise<{ paint: number; ready: number }> {
  const context = await f.browser.newContext();
  const page = await context.newPage();
  f.host.page('/time', html);
  await page.goto(`${f.host.origin}/time`);
  const result = await page.evaluate(async (open) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    const until = async (ok: () => boolean) => { while (!ok()) await frame(); await frame(); };
    const start = performance.now();
    (window as unknown as { mount(): void }).mount();
    const el = document.querySelector('#root > *') as HTMLElement & { shadowRoot: ShadowRoot };
    await until(() => Boolean(el.shadowRoot?.querySelector('button')));
    const paint = performance.now() - start;
    if (!open) return { paint, ready: 0 };
    const clicked = performance.now();
    (el.shadowRoot.querySelector('button') as HTMLElement).click();
    await until(() => Boolean(el.shadowRoot.querySelector('textarea') && el.shadowRoot.querySelector('[role="log"]')));
    return { paint, ready: performance.now() - clicked };
  }, open);
  await context.close();
  return result;
}

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

try {
  const f = await widgetFixture(t);
  const { launcher, opened } = await weigh(f);
  const widgetPage = (user: string) => `<!doctype html><html lang="en"><head><title>bench</title>${tokenScript(user)}
<script type="module">
window.mount = () => { const el = document.createElement('platform-chat');
  Object.assign(el, { apiUrl: '${f.apiUrl}', clientKey: '${f.clientKey}', launcher: true });
  document.getElementById('root').append(el); import('${f.apiUrl}/embed/v1/platform-chat.ce.js?v=0.3.0'); };
</script></head><body><div id="root"></div></body></html>`;
  const barePage = `<!doctype html><html lang="en"><head><title>baseline</title><script>
window.mount = () => { customElements.define('bare-button', class extends HTMLElement { connectedCallback() {
  this.attachShadow({ mode: 'open' }).innerHTML = '<button style="position:fixed;right:20px;bottom:20px;width:56px;height:56px;border-radius:50%">?</button>'; } });
  document.getElementById('root').append(document.createElement('bare-button')); };
</script></head><body><div id="root"></div></body></html>`;
  const widget: { paint: number; ready: number }[] = [];
  const bare: number[] = [];
  await timeOnce(f, widgetPage(newVisitor()), true); // warm-up: the platform's first requests
  for (let i = 0; i < RUNS; i += 1) {
    widget.push(await timeOnce(f, widgetPage(newVisitor()), true));
    bare.push((await timeOnce(f, barePage, false)).paint);
  }
  const paint = median(widget.map((w) => w.paint));
  const ready = median(widget.map((w) => w.ready));
  const floor = median(bare);
  console.log(`widget bench (${RUNS} cold loads each; node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  console.log(`launcher before opening: ${kb(launcher.brotli)} brotli (${launcher.files} files; ${kb(launcher.wire)} received gzip over http) — target <= 15 KB; ${(launcher.brotli / CHATWOOT_CAP).toFixed(3)} of Chatwoot's 300 KB`);
  console.log(`whole widget after opening: ${kb(opened.brotli)} brotli (${opened.files} files; ${kb(opened.wire)} received gzip over http) — target <= 70 KB; ${(opened.brotli / CHATWOOT_CAP).toFixed(3)} of Chatwoot's 300 KB`);
  console.log(`mount -> launcher painted: p50 ${paint.toFixed(1)} ms (min ${Math.min(...widget.map((w) => w.paint)).toFixed(1)}); baseline bare custom element: p50 ${floor.toFixed(1)} ms; ratio ${(paint / floor).toFixed(2)}`);
  console.log(`click -> opened, ready panel (panel chunk, session list, messages): p50 ${ready.toFixed(1)} ms (min ${Math.min(...widget.map((w) => w.ready)).toFixed(1)}, max ${Math.max(...widget.map((w) => w.ready)).toFixed(1)})`);
  const report = reportWeights(DIST);
  console.log(`report element first load: ${kb(report.firstLoad)} brotli (${report.files} files); with the map chunk: ${kb(report.withMap)}; with the Form.io chunk too (a v1 type): ${kb(report.withFormio)}`);
} finally {
  for (const fn of teardowns.reverse()) await fn();
}

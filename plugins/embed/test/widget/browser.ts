// The widget's browser tests' helper: Debian's chromium-headless-shell driven
// by playwright-core (no browser download), the platform listening on
// 127.0.0.1 with a scripted model server, and host pages served from a second
// loopback origin (http://localhost:<other port>) so that every widget call is
// cross-origin. The host backend's token endpoint (/embed-token) mints an
// embed token for the page, as a real host backend would.
import http from 'node:http';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'esbuild';
import { startTestPlatform, tenantWithAdmin, type Tap, type TestPlatform } from 'agent-platform/sdk/testing';
import { ScriptedLlm } from '../../../../test/fixtures/chat/scripted-llm.ts';
import { backendToken, createClient, mint, type EmbedFixture } from '../helpers.ts';

export const CHROMIUM = '/usr/bin/chromium-headless-shell';
export const SCREENSHOTS = path.resolve('.tap/screenshots/widget');
const ROOT = path.resolve('.');

/** Why the browser tests cannot run here, or null. */
export function browserMissing(): string | null {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing (scripts/test.sh installs chromium-headless-shell as root)`;
  if (!existsSync(path.join(ROOT, 'plugins/embed/widget/dist/platform-chat.ce.js'))) return 'the widget is not built (node scripts/build-widget.ts)';
  return null;
}

export async function launchBrowser(t: Tap): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  t.teardown(() => browser.close());
  return browser;
}

export interface HostServer {
  origin: string;
  /** Serves `html` (or JS, by the path's extension) at `path` of the host origin. */
  page(path: string, body: string): void;
  stop(): Promise<void>;
}

/** A host site on http://localhost:<port> (another origin than the platform's 127.0.0.1). */
export async function hostServer(t: Tap, mintToken: (user: string) => Promise<string>): Promise<HostServer> {
  const pages = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/embed-token.json') {
      // What the CLI's snippet calls: POST, JSON {access_token}.
      mintToken(url.searchParams.get('user') || 'visitor').then((token) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: token })), (error) => res.writeHead(500).end(String(error)));
      return;
    }
    if (url.pathname === '/embed-token') {
      mintToken(url.searchParams.get('user') || 'visitor').then((token) => res.writeHead(200, { 'content-type': 'text/plain' }).end(token), (error) => res.writeHead(500).end(String(error)));
      return;
    }
    const body = pages.get(url.pathname);
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': url.pathname.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stop = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  t.teardown(stop);
  return { origin: `http://localhost:${(server.address() as AddressInfo).port}`, page: (p, body) => void pages.set(p, body), stop };
}

export interface WidgetFixture {
  tp: TestPlatform;
  llm: ScriptedLlm;
  host: HostServer;
  browser: Browser;
  apiUrl: string;
  clientKey: string;
  clientId: number;
  token: string;
  embed: EmbedFixture;
}

/** Platform (chat, embed, ingestion) listening, a scripted model, an embeddable client allowed for the host origin, a browser. */
export async function widgetFixture(t: Tap, config: Record<string, unknown> = {}, options: { offline?: boolean } = {}): Promise<WidgetFixture> {
  const llm = await new ScriptedLlm().start();
  t.teardown(() => llm.stop());
  const tp = await startTestPlatform(t, {
    listen: true,
    env: {
      PLATFORM_MANIFEST: 'test/fixtures/manifests/embed-uploads.yaml', EMBED_ALLOW_LOCALHOST_ORIGINS: 'true',
      // offline: no model, the offline responder answers with quoted, cited passages.
      LLM_BASE_URL: options.offline ? '' : llm.baseUrl, LLM_API_KEY: 'sk-test', LLM_MODEL: 'scripted-1',
    },
  });
  const { token } = await tenantWithAdmin(tp, 'acme');
  await createClient(tp, token, 'web', 'ck_acme_web');
  const clientId = await createClient(tp, token, 'shop', 'ck_acme_shop');
  const credential = await tp.request({ method: 'POST', url: `/api/admin/clients/${clientId}/embed-credentials`, token });
  if (credential.status !== 201) throw new Error(`credential: ${JSON.stringify(credential.body)}`);
  const embed: EmbedFixture = { tp, token, tenant: 'acme', webClientId: 0, clientId, clientKey: 'ck_acme_shop', credential: credential.body };
  const mintToken = async (user: string) => {
    const answer = await mint(tp, await backendToken(embed), { client_key: 'ck_acme_shop', external_user_id: user, display_name: 'Visitor' }, host.origin);
    if (answer.status !== 200) throw new Error(`mint: ${JSON.stringify(answer.body)}`);
    return answer.body.access_token as string;
  };
  const host = await hostServer(t, mintToken);
  const configured = await tp.request({
    method: 'PUT', url: `/api/admin/clients/${clientId}/embed`, token,
    payload: { enabled: true, allowed_origins: [host.origin], features: { uploads: true, history: true, feedback: true }, ...config },
  });
  if (configured.status !== 200) throw new Error(`configure: ${JSON.stringify(configured.body)}`);
  const browser = await launchBrowser(t);
  return { tp, llm, host, browser, apiUrl: tp.url(''), clientKey: 'ck_acme_shop', clientId, token, embed };
}

let visitors = 0;
/** A fresh external user id: each page its own conversations. */
export const newVisitor = () => `visitor-${process.pid}-${++visitors}`;

/** The host page's token provider: its backend mints an embed token for the signed-in user. */
export const tokenScript = (user: string) => `<script>window.PlatformChat = { getAccessToken: () => fetch('/embed-token?user=${user}').then((r) => r.text()) };</script>`;

/** A host page with the custom element (attributes as given) and the host's token provider. */
export function elementPage(f: WidgetFixture, attributes: string, extra = '', user = newVisitor()): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host page</title>
${tokenScript(user)}
<script type="module" src="${f.apiUrl}/embed/v1/platform-chat.ce.js?v=0.3.0"></script>${extra}</head>
<body><main><h1>Shop</h1><platform-chat api-url="${f.apiUrl}" client-key="${f.clientKey}" ${attributes} style="display:block;height:600px"></platform-chat></main></body></html>`;
}

export async function openPage(f: WidgetFixture, pathName: string, html: string, viewport = { width: 1024, height: 800 }): Promise<Page> {
  f.host.page(pathName, html);
  const page = await f.browser.newPage({ viewport });
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  // Console errors of the page (a failed request, a widget warning) help read a failure.
  page.on('console', (message) => { if (process.env.WIDGET_TEST_DEBUG) console.error(`[page ${message.type()}] ${message.text()}`); });
  (page as Page & { errors: string[] }).errors = errors;
  await page.goto(`${f.host.origin}${pathName}`);
  return page;
}

/** Bundles a host app (as a host's own bundler would) that imports a built widget entry; React and Vue come from the repo's node_modules. */
export async function bundleHostApp(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: ROOT, loader: 'ts' }, bundle: true, format: 'esm', write: false, platform: 'browser',
    define: { 'process.env.NODE_ENV': '"production"', __VUE_OPTIONS_API__: 'true', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' },
    logLevel: 'error',
  });
  return result.outputFiles[0]!.text;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** axe-core run in the page on the widget's shadow tree; the violations (id and targets). */
export async function axeViolations(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  const source = (await import('node:fs')).readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: source });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }).axe;
    const result = await axe.run({ include: [['platform-chat']] }, {}) as unknown as { violations: { id: string; nodes: { target: unknown }[] }[]; passes: unknown[] };
    // A run that checked nothing proves nothing.
    if (result.passes.length === 0) return [{ id: 'axe checked nothing in <platform-chat>', nodes: [] }];
    return result.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
}

/** A locator inside the widget's shadow DOM (playwright's CSS pierces open shadow roots). */
export const inWidget = (page: Page, selector: string) => page.locator(`platform-chat ${selector}`);

/** The chat API as one visitor (an embed token, the host's Origin and the marker), to arrange and check state. */
export async function visitorApi(f: WidgetFixture, user: string) {
  const minted = await mint(f.tp, await backendToken(f.embed), { client_key: f.clientKey, external_user_id: user, display_name: 'Visitor' }, f.host.origin);
  const token = minted.body.access_token as string;
  return (method: string, url: string, payload?: unknown) =>
    f.tp.request({ method, url: `${url}${url.includes('?') ? '&' : '?'}selected_client=${f.clientKey}`, token, payload, headers: { origin: f.host.origin, 'x-platform-embed': '1' } });
}

/** Runs SQL as the tenant (transaction-local app.tenant_id, as withTenant does). */
export async function asTenant(f: WidgetFixture, sql: string, params: unknown[] = []): Promise<void> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: f.tp.databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT set_config('app.tenant_id', 'acme', true)`);
    await client.query(sql, params);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

/** A TCP relay in front of the platform whose open connections the test can cut (a dropped connection mid-answer). */
export async function cuttableRelay(t: Tap, target: string): Promise<{ url: string; cut(): number }> {
  const net = await import('node:net');
  const { port, hostname } = new URL(target);
  const open = new Set<import('node:net').Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => { for (const s of open) s.destroy(); server.close(() => resolve()); }));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut: () => { const n = open.size; for (const s of open) s.destroy(); return n; },
  };
}

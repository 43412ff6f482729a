// The console's browser-test harness, shared by every section's test: the
// platform listening on loopback (the default manifest), a tenant with an
// admin, a staff member, a pipeline editor and a plain member, a person in
// two tenants, one Chromium (Debian's chromium-headless-shell through
// playwright-core), the console opened signed in as a given role, axe-core
// on the whole page, and a screenshot per page under .tap/screenshots/console/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { startTestPlatform, type Tap, type TestPlatform } from 'agent-platform/sdk/testing';

export const CHROMIUM = '/usr/bin/chromium-headless-shell';
export const SCREENSHOTS = path.resolve('.tap/screenshots/console');
const ROOT = path.resolve('.');
const DIST = path.join(ROOT, 'plugins/console/app/dist');

/** Why the browser tests cannot run here, or null. Builds the console when it is not built. */
export function browserMissing(): string | null {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing (scripts/test.sh installs chromium-headless-shell as root)`;
  if (!existsSync(path.join(DIST, 'index.html'))) execFileSync(process.execPath, ['scripts/build-console.ts', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  return null;
}

export type Role = 'super-admin' | 'admin' | 'staff' | 'editor' | 'member' | 'multi';

export interface ConsoleFixture {
  tp: TestPlatform;
  browser: Browser;
  /** The console's address: http://127.0.0.1:<port>/console */
  base: string;
  /** An access token per role: acme's admin, staff, pipeline editor and member; `multi` is admin of acme and member of globex. */
  tokens: Record<Role, string>;
  subs: Record<Exclude<Role, 'super-admin'>, string>;
}

async function createUser(tp: TestPlatform, sub: string, tenant: string, roles: string[]): Promise<void> {
  const created = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub, display_name: sub, organizations: [tenant], roles } });
  if (created.status !== 201 && created.status !== 200) throw new Error(`user ${sub}: ${JSON.stringify(created.body)}`);
}

export async function issueToken(tp: TestPlatform, sub: string): Promise<string> {
  const issued = await tp.request({ method: 'POST', url: `/api/admin/users/${sub}/tokens`, token: tp.adminToken });
  if (issued.status !== 201) throw new Error(`token ${sub}: ${JSON.stringify(issued.body)}`);
  return issued.body.access_token as string;
}

/** The platform (listening) with tenants acme and globex and their people, and a browser. */
export async function consoleFixture(t: Tap, env: Record<string, string> = {}): Promise<ConsoleFixture> {
  const tp = await startTestPlatform(t, { listen: true, env });
  for (const tenant of ['acme', 'globex']) {
    const created = await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id: tenant } });
    if (created.status !== 201) throw new Error(`tenant ${tenant}: ${JSON.stringify(created.body)}`);
  }
  const subs = { admin: 'ada-admin', staff: 'sam-staff', editor: 'eve-editor', member: 'mia-member', multi: 'max-multi' };
  await createUser(tp, subs.admin, 'acme', ['admin']);
  await createUser(tp, subs.staff, 'acme', ['staff']);
  await createUser(tp, subs.editor, 'acme', ['pipeline_editor']);
  await createUser(tp, subs.member, 'acme', []);
  await createUser(tp, subs.multi, 'acme', ['admin']);
  await createUser(tp, subs.multi, 'globex', []);
  const tokens = { 'super-admin': tp.adminToken } as Record<Role, string>;
  for (const [role, sub] of Object.entries(subs)) tokens[role as Role] = await issueToken(tp, sub);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  t.teardown(() => browser.close());
  return { tp, browser, base: tp.url('/console'), tokens, subs };
}

export interface ConsolePage extends Page {
  /** Uncaught errors and console errors of the page (a CSP violation is one). */
  errors: string[];
}

/** A new page (its own browser context: its own sessionStorage) at `path` of the console. */
export async function newConsolePage(f: ConsoleFixture, path = '/', options: BrowserContextOptions = {}): Promise<ConsolePage> {
  const context = await f.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', ...options });
  const page = await context.newPage() as ConsolePage;
  page.setDefaultTimeout(10_000);
  page.errors = [];
  page.on('pageerror', (error) => page.errors.push(String(error)));
  // A refused request (a wrong token's 401) is logged by the browser too: that is the test's doing, not the page's.
  page.on('console', (message) => { if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) page.errors.push(message.text()); });
  await page.goto(`${f.base}${path}`);
  return page;
}

/** Signs in on the sign-in page with `token` (the Access token field and Sign in). */
export async function signIn(page: Page, token: string): Promise<void> {
  await page.getByLabel('Access token').fill(token);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The console opened at `path` and signed in as `role`; resolves once signed in (Sign out is shown). */
export async function openConsole(f: ConsoleFixture, role: Role, path = '/', options: BrowserContextOptions = {}): Promise<ConsolePage> {
  const page = await newConsolePage(f, path, options);
  await signIn(page, f.tokens[role]);
  await page.getByRole('button', { name: /^(Sign out|Terminar sessão)$/ }).waitFor();
  return page;
}

/** The nav links' names, in order. */
export async function navLinks(page: Page): Promise<string[]> {
  return page.getByRole('navigation').getByRole('link').allInnerTexts();
}

/** axe-core over the whole page (the shell and the sections' shadow trees); the violations. */
export async function axeViolations(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    // Injected through the debugging protocol: the page's CSP forbids inline and foreign scripts.
    await page.evaluate(readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8'));
  }
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[]; passes: unknown[] }> } }).axe;
    const result = await axe.run(document, {});
    if (result.passes.length === 0) return [{ id: 'axe checked nothing', nodes: [] }];
    return result.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** What the page keeps in localStorage and sessionStorage. */
export async function storage(page: Page): Promise<{ local: string; session: string }> {
  return page.evaluate(() => ({ local: JSON.stringify({ ...localStorage }), session: JSON.stringify({ ...sessionStorage }) }));
}

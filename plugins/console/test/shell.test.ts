// The console's shell in real Chromium: its page and files over HTTP (CSP,
// caching, brotli, deep links), sign-in with an access token (a wrong one
// refused), with a one-time link of `platform console link` (once, and not
// after it expired), and with an OIDC issuer (authorization code + PKCE, a
// loopback provider); the nav per role, the tenant picker, Portuguese, a
// 390 px screen, the keyboard alone; tokens never in localStorage nor the URL.
import t, { type Test } from 'tap';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { runCli } from 'agent-platform/sdk/testing';
import {
  axeViolations, browserMissing, consoleFixture, navLinks, newConsolePage, openConsole, screenshot, signIn, storage, type ConsolePage,
} from './helpers.ts';
import { oidcProvider } from './oidc-provider.ts';

const missing = browserMissing();
if (missing) {
  t.test(`console browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const oidc = await oidcProvider(t, { clientId: 'console-app', audience: 'platform-api', sub: 'olga-oidc', organizations: { acme: { roles: ['admin'] } } });
  const f = await consoleFixture(t, {
    OIDC_ISSUER_URL: oidc.issuer, OIDC_AUDIENCE: 'platform-api', CONSOLE_OIDC_CLIENT_ID: 'console-app', CONSOLE_LINK_RATE_LIMIT_PER_MINUTE: '20',
  });
  const assets = readdirSync(path.resolve('plugins/console/app/dist/assets')).filter((n) => !n.endsWith('.br'));
  const entry = assets.find((n) => /^console-[A-Z0-9]+\.js$/.test(n))!;

  /** The page is clean: one h1 named `heading`, axe finds nothing, no page error; a screenshot to look at. */
  const checkPage = async (t: Test, page: ConsolePage, heading: string, name: string) => {
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), [heading], `one h1: ${heading}`);
    t.same(await axeViolations(page), [], `${name}: axe finds nothing`);
    t.same(page.errors, [], `${name}: no page error (a CSP violation would be one)`);
    await screenshot(page, name);
  };

  t.test('the page and its files: CSP and headers, deep links, immutable hashed assets, brotli', async (t) => {
    const redirect = await f.tp.request({ url: '/console' });
    t.equal(redirect.status, 302);
    t.equal(redirect.headers.location, '/console/');
    for (const url of ['/console/', '/console/overview', '/console/documents/42', '/console/callback?code=x&state=y']) {
      const res = await f.tp.request({ url });
      t.equal(res.status, 200, url);
      t.match(String(res.headers['content-type']), /^text\/html/, `${url} is the page`);
      t.equal(res.headers['cache-control'], 'no-cache, must-revalidate', `${url} revalidates`);
      const csp = String(res.headers['content-security-policy']);
      for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", `connect-src 'self' ${oidc.issuer}`]) {
        t.ok(csp.split('; ').includes(directive), `${url}: ${directive}`);
      }
      t.notMatch(csp, /unsafe-inline|unsafe-eval/, 'no inline script, no eval');
      t.equal(res.headers['x-content-type-options'], 'nosniff');
      t.equal(res.headers['referrer-policy'], 'no-referrer');
    }
    const page = await f.tp.request({ url: '/console/' });
    t.match(String(page.body), `/console/assets/${entry}`, 'the page names the hashed entry');
    const js = await f.tp.request({ url: `/console/assets/${entry}`, headers: { 'accept-encoding': 'gzip, br' } });
    t.equal(js.status, 200);
    t.equal(js.headers['cache-control'], 'public, max-age=31536000, immutable');
    t.equal(js.headers['content-encoding'], 'br');
    t.match(String(js.headers['content-type']), /^text\/javascript/);
    const plain = await f.tp.request({ url: `/console/assets/${entry}` });
    t.equal(plain.headers['content-encoding'], undefined, 'plain without accept-encoding br');
    for (const url of ['/console/assets/nothing-ABC.js', '/console/assets/index.html', '/console/assets/../index.html', '/console/a/b/c/d/e/f']) {
      t.equal((await f.tp.request({ url })).status, 404, `${url} is 404`);
    }
  });

  t.test('sign-in with an access token: a wrong one refused, the right one kept in sessionStorage only, sign out clears it', async (t) => {
    const page = await newConsolePage(f, '/overview');
    await checkPage(t, page, 'Sign in', 'sign-in');
    await signIn(page, 'not-a-token');
    await t.resolves(page.getByRole('alert').filter({ hasText: 'This access token was not accepted' }).waitFor(), 'a wrong token is refused, visibly');
    t.equal(await page.getByRole('navigation').count(), 0, 'not signed in');
    await signIn(page, f.tokens.admin);
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    t.same(await navLinks(page), ['Overview', 'Documents', 'Chat', 'Workflows', 'Approvals', 'Occurrences', 'Forms', 'Sources', 'Transforms', 'Pipelines', 'Datasets', 'Ontology', 'Embed', 'Integrations', 'Settings'], 'an admin: every section');
    t.equal(new URL(page.url()).pathname, '/console/overview', 'the deep link is kept');
    await page.getByRole('heading', { name: 'Usage this week' }).waitFor();
    await checkPage(t, page, 'Overview', 'overview-admin');
    const stored = await storage(page);
    t.notOk(stored.local.includes(f.tokens.admin), 'the token is not in localStorage');
    t.ok(stored.session.includes(f.tokens.admin), 'the token is in sessionStorage');
    t.notOk(page.url().includes(f.tokens.admin), 'nor in the URL');
    await page.reload();
    await page.getByRole('navigation').waitFor();
    t.pass('a reload stays signed in (this tab\'s session)');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Access token').waitFor();
    t.equal((await storage(page)).session.includes(f.tokens.admin), false, 'sign out forgets the token');
    await page.context().close();
  });

  t.test('the nav and the Overview follow the roles; the tenant picker switches X-Tenant-ID', async (t) => {
    const staff = await openConsole(f, 'staff');
    t.same(await navLinks(staff), ['Overview', 'Chat', 'Approvals', 'Occurrences', 'Datasets'], 'staff');
    await staff.getByRole('heading', { name: 'Usage this week' }).waitFor();
    t.equal(await staff.getByRole('heading', { name: 'Recent events' }).count(), 0, 'staff sees no events (admin only)');
    t.equal(await staff.getByLabel('Tenant').count(), 0, 'one tenant: no picker');
    await staff.context().close();

    const editor = await openConsole(f, 'editor');
    t.same(await navLinks(editor), ['Overview', 'Chat', 'Approvals', 'Sources', 'Transforms', 'Pipelines', 'Datasets', 'Ontology'], 'a pipeline editor: the data workspace');
    await editor.context().close();

    const member = await openConsole(f, 'member');
    t.same(await navLinks(member), ['Overview', 'Chat', 'Approvals', 'Datasets'], 'member');
    await member.getByRole('heading', { name: 'Platform' }).waitFor();
    await member.getByText('Ready', { exact: true }).waitFor();
    t.equal(await member.getByRole('heading', { name: 'Usage this week' }).count(), 0, 'a member sees no usage');
    await checkPage(t, member, 'Overview', 'overview-member');
    await member.context().close();

    const multi = await openConsole(f, 'multi');
    const picker = multi.getByRole('combobox', { name: 'Tenant' });
    t.same(await picker.locator('option').allInnerTexts(), ['acme', 'globex']);
    await multi.getByRole('heading', { name: 'Recent events' }).waitFor();
    const asked: string[] = [];
    multi.on('request', (request) => { if (request.url().includes('/api/')) asked.push(`${request.url()} ${request.headers()['x-tenant-id']}`); });
    await picker.selectOption('globex');
    await multi.getByRole('heading', { name: 'Platform' }).waitFor();
    await t.resolves(multi.waitForFunction(() => !document.querySelector('console-section-overview')?.shadowRoot?.querySelector('#usage')), 'a member of globex sees no usage');
    t.ok(asked.some((line) => line.includes('/api/v1/status') && line.endsWith(' globex')), 'calls send X-Tenant-ID: globex');
    await multi.reload();
    await multi.getByRole('navigation').waitFor();
    t.equal(await multi.getByRole('combobox', { name: 'Tenant' }).inputValue(), 'globex', 'the choice is kept in the tab');
    await checkPage(t, multi, 'Overview', 'overview-tenant-picker');
    await multi.context().close();
  });

  t.test('Portuguese from the browser\'s language, and the language switch', async (t) => {
    const page = await newConsolePage(f, '/', { locale: 'pt-PT' });
    await page.getByRole('heading', { name: 'Iniciar sessão' }).waitFor();
    t.equal(await page.evaluate(() => document.documentElement.lang), 'pt');
    await page.getByLabel('Token de acesso').fill(f.tokens.admin);
    await page.getByRole('button', { name: 'Entrar', exact: true }).click();
    await page.getByRole('navigation', { name: 'Secções' }).waitFor();
    t.same(await navLinks(page), ['Visão geral', 'Documentos', 'Chat', 'Fluxos de trabalho', 'Aprovações', 'Ocorrências', 'Formulários', 'Fontes', 'Transformações', 'Pipelines', 'Conjuntos de dados', 'Ontologia', 'Incorporação', 'Integrações', 'Definições']);
    await page.getByRole('heading', { name: 'Utilização desta semana' }).waitFor();
    await checkPage(t, page, 'Visão geral', 'overview-pt');
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
    await page.getByRole('heading', { name: 'Usage this week' }).waitFor();
    t.same(await navLinks(page), ['Overview', 'Documents', 'Chat', 'Workflows', 'Approvals', 'Occurrences', 'Forms', 'Sources', 'Transforms', 'Pipelines', 'Datasets', 'Ontology', 'Embed', 'Integrations', 'Settings'], 'switched to English');
    await page.context().close();
  });

  t.test('390 px: the nav collapses into a Menu button', async (t) => {
    const page = await openConsole(f, 'admin', '/', { viewport: { width: 390, height: 844 } });
    const menu = page.getByRole('button', { name: 'Menu' });
    t.equal(await menu.getAttribute('aria-expanded'), 'false');
    t.equal(await page.getByRole('link', { name: 'Overview' }).isVisible(), false, 'the nav is folded');
    await page.getByRole('heading', { name: 'Usage this week' }).waitFor();
    await checkPage(t, page, 'Overview', 'narrow-closed');
    await menu.click();
    t.equal(await menu.getAttribute('aria-expanded'), 'true');
    t.equal(await page.getByRole('link', { name: 'Overview' }).isVisible(), true, 'the menu shows the nav');
    await checkPage(t, page, 'Overview', 'narrow-open');
    await page.context().close();
  });

  t.test('the keyboard alone: skip link, sign in, the nav', async (t) => {
    const page = await newConsolePage(f);
    await page.getByLabel('Access token').waitFor();
    await page.keyboard.press('Tab');
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content', 'the first Tab reaches the skip link');
    await page.keyboard.press('Enter');
    t.equal(await page.evaluate(() => document.activeElement?.id), 'main', 'it moves focus to the main content');
    await page.keyboard.press('Tab');
    t.equal(await page.evaluate(() => document.activeElement?.id), 'access-token', 'then the token field');
    await page.keyboard.type(f.tokens.admin);
    await page.keyboard.press('Enter');
    await page.getByRole('navigation').waitFor();
    const visible = await page.evaluate(() => getComputedStyle(document.querySelector('.skip')!).outlineStyle);
    t.ok(visible, 'a focus style exists');
    // Tab until the Overview link has the focus; Enter follows it.
    let reached = false;
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.textContent === 'Overview' && document.activeElement.tagName === 'A');
    }
    t.ok(reached, 'Tab reaches the nav link');
    t.equal(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle), 'solid', 'the focused link shows its focus');
    await page.keyboard.press('Enter');
    await t.resolves(page.waitForFunction(() => document.activeElement?.tagName === 'H1'), 'following it moves focus to the page\'s h1');
    await page.context().close();
  });

  t.test('platform console link: a one-time sign-in URL, used once, refused when expired; the code leaves the address bar', async (t) => {
    const link = await runCli(['console', 'link', '--sub', f.subs.member, '--tenant', 'acme', '--json'], { platform: f.tp });
    t.equal(link.code, 0, link.stderr);
    const url = new URL(link.json.url);
    t.match(url.hash, /^#link=[A-Za-z0-9_-]{40,}$/, 'the code is in the fragment');
    t.ok(new Date(link.json.expires_at).getTime() - Date.now() <= 300_000, 'valid about 5 minutes');
    const page = await newConsolePage(f, `/${url.hash}`);
    await page.getByRole('navigation').waitFor();
    t.notOk(page.url().includes('link='), 'the code is stripped from the URL');
    t.same(await navLinks(page), ['Overview', 'Chat', 'Approvals', 'Datasets'], 'signed in as the member');
    t.notOk((await storage(page)).local.includes('ey'), 'no token in localStorage');
    await checkPage(t, page, 'Overview', 'signed-in-by-link');
    await page.context().close();

    const again = await newConsolePage(f, `/${url.hash}`);
    await t.resolves(again.getByRole('alert').filter({ hasText: 'unknown, used or expired' }).waitFor(), 'a second use is refused');
    t.notOk(again.url().includes('link='));
    await again.context().close();

    const code = url.hash.slice('#link='.length);
    const reused = await f.tp.request({ method: 'POST', url: '/api/console/link/exchange', payload: { code } });
    t.equal(reused.status, 401);
    t.equal(reused.body.code, 'LINK_INVALID');
    const unknown = await f.tp.request({ method: 'POST', url: '/api/console/link/exchange', payload: { code: 'A'.repeat(43) } });
    t.same([unknown.status, unknown.body.code, unknown.body.message], [401, 'LINK_INVALID', reused.body.message], 'an unknown code: the same 401');

    const expiring = await runCli(['console', 'link', '--sub', f.subs.admin, '--json'], { platform: f.tp });
    const expiringCode = new URL(expiring.json.url).hash.slice('#link='.length);
    const db = new pg.Client({ connectionString: f.tp.databaseUrl });
    await db.connect();
    await db.query(`UPDATE console.link_codes SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`);
    await db.end();
    const expired = await f.tp.request({ method: 'POST', url: '/api/console/link/exchange', payload: { code: expiringCode } });
    t.same([expired.status, expired.body.code, expired.body.message], [401, 'LINK_INVALID', reused.body.message], 'an expired code: the same 401');

    const bad = await runCli(['console', 'link', '--sub', 'nobody-here', '--json'], { platform: f.tp });
    t.equal(bad.code, 1, 'an unknown user: no link');
    t.match(bad.stderr, /USER_NOT_FOUND/);
    t.equal((await f.tp.request({ method: 'POST', url: '/api/console/link/exchange', payload: { code: 'no good' } })).status, 400, 'a malformed code is a 400');
  });

  t.test('sign in with the OIDC issuer: authorization code with PKCE S256, state and nonce checked', async (t) => {
    const page = await newConsolePage(f);
    const button = page.getByRole('button', { name: `Sign in with ${new URL(oidc.issuer).host}` });
    await button.click();
    await page.getByRole('navigation').waitFor();
    t.equal(new URL(page.url()).pathname, '/console/overview');
    t.equal(new URL(page.url()).search, '', 'the code and state are stripped');
    const authorization = oidc.authorizations.at(-1)!;
    t.equal(authorization.get('code_challenge_method'), 'S256');
    t.equal(authorization.get('client_id'), 'console-app');
    t.equal(authorization.get('redirect_uri'), `${f.tp.url('')}/console/callback`);
    t.ok(authorization.get('state') && authorization.get('nonce'), 'state and nonce sent');
    t.ok(oidc.tokenRequests.at(-1)?.accepted, 'the token endpoint accepted the code verifier');
    t.match(await page.getByText(/Signed in as/).innerText(), 'olga-oidc');
    const stored = await storage(page);
    t.notOk(stored.local.includes('ey'), 'no token in localStorage');
    t.notOk(stored.session.includes('verifier'), 'the verifier is gone once used');
    await checkPage(t, page, 'Overview', 'signed-in-by-oidc');

    // A sign-in this tab started (its state kept), answered with another state: refused.
    await page.evaluate(() => sessionStorage.setItem('console.oidc', JSON.stringify({ state: 'started-here', nonce: 'n', verifier: 'v', tokenEndpoint: 'http://127.0.0.1:9/token', issuer: 'x', clientId: 'console-app' })));
    await page.goto(`${f.base}/callback?code=forged&state=forged`);
    await t.resolves(page.getByRole('alert').filter({ hasText: '(state)' }).waitFor(), 'a callback with another state is refused');
    t.equal(new URL(page.url()).search, '', 'and stripped from the URL');
    await page.context().close();
  });

  t.test('the link exchange is rate limited per address before its body is read', async (t) => {
    let limited: { status: number; headers: Record<string, unknown> } | undefined;
    for (let i = 0; i < 25 && !limited; i++) {
      const res = await f.tp.request({ method: 'POST', url: '/api/console/link/exchange', payload: { code: 'B'.repeat(43) } });
      if (res.status === 429) limited = res;
    }
    t.equal(limited?.status, 429);
    t.ok(Number(limited?.headers['retry-after']) >= 1, 'Retry-After');
  });
}

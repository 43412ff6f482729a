// The Embed section in real Chromium: an admin edits a client's origins and
// theme (the REST API confirms), the preview's widget takes the theme, the
// install snippet names the client key and api-url and Copy puts it on the
// clipboard; an embed credential is provisioned with its secret shown once
// (a reload shows it no more), then revoked after the confirm dialog.
import t from 'tap';
import type { Test } from 'tap';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { axeViolations, browserMissing, consoleFixture, openConsole, screenshot, storage, type ConsolePage } from './helpers.ts';

const missing = browserMissing() ?? (existsSync(path.resolve('plugins/embed/widget/dist/platform-chat.ce.js')) ? null : 'the chat widget is not built (node scripts/build-widget.ts)');
if (missing) {
  t.test(`embed section browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const f = await consoleFixture(t);
  const admin = f.tokens.admin;
  const call = async (method: string, url: string) => {
    const res = await f.tp.request({ method, url, token: admin, tenant: 'acme' });
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const client = (await call('GET', '/api/admin/clients')).items[0] as { id: number; client_key: string; name: string };
  const origin = new URL(f.base).origin;

  const checkPage = async (t: Tap, page: ConsolePage, name: string) => {
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), ['Embed'], 'one h1');
    t.same(await axeViolations(page), [], `${name}: axe finds nothing`);
    t.same(page.errors, [], `${name}: no page error (a CSP violation would be one)`);
    await screenshot(page, name);
  };
  type Tap = Test;
  const status = (page: ConsolePage, text: string) => page.getByRole('status').filter({ hasText: text }).waitFor({ state: 'attached' });

  t.test('origins and theme edited, the preview themed, the snippet copied', async (t) => {
    const page = await openConsole(f, 'admin', '/embed', { permissions: ['clipboard-read', 'clipboard-write'] });
    t.equal(await page.getByLabel('Client').inputValue(), String(client.id), 'the first client is chosen');
    await page.getByLabel('Enabled').check();
    await page.getByLabel('Allowed origins (one per line)').fill('https://shop.example\nhttps://www.shop.example');
    await page.getByLabel('Accent colour').fill('#b42318');
    await page.getByLabel('Font family').fill('Georgia, serif');
    await page.getByLabel('Voice').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await status(page, 'Embed settings saved');
    const saved = await call('GET', `/api/admin/clients/${client.id}/embed`);
    t.same(saved.allowed_origins, ['https://shop.example', 'https://www.shop.example'], 'REST: the origins');
    t.same(saved.theme, { accent: '#b42318', font_family: 'Georgia, serif' }, 'REST: the theme');
    t.equal(saved.enabled, true);
    t.equal(saved.features.voice, true);

    // The preview: the widget's launcher, with the theme as page tokens.
    const launcher = page.getByRole('button', { name: 'Open chat' });
    await launcher.waitFor();
    t.equal(await page.locator('platform-chat').evaluate((el: HTMLElement) => el.style.getPropertyValue('--platform-chat-accent')), '#b42318');
    t.equal(await launcher.evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(180, 35, 24)', 'the launcher takes the accent');
    await page.getByLabel('Accent colour').fill('#116329');
    await t.resolves(launcher.evaluate((el) => new Promise<void>((resolve) => {
      const poll = () => (getComputedStyle(el).backgroundColor === 'rgb(17, 99, 41)' ? resolve() : requestAnimationFrame(poll));
      poll();
    })), 'an edit shows in the preview before it is saved');

    const snippet = await page.locator('pre').innerText();
    t.match(snippet, `client-key="${client.client_key}"`, 'the snippet names the client key');
    t.match(snippet, `api-url="${origin}"`, 'and the api-url');
    t.match(snippet, `<script type="module" src="${origin}/embed/v1/platform-chat.ce.js"></script>`);
    await page.getByRole('button', { name: 'Copy' }).click();
    await status(page, 'Copied');
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet, 'Copy puts the snippet on the clipboard');
    await checkPage(t, page, 'embed-settings');
    await page.context().close();
  });

  t.test('a credential: provisioned with the secret shown once, not after a reload, revoked after confirming', async (t) => {
    const page = await openConsole(f, 'admin', '/embed');
    await page.getByRole('button', { name: 'Provision credential' }).click();
    const shown = page.getByRole('region', { name: 'The new secret (shown once)' });
    await shown.waitFor();
    const secret = (await shown.locator('code').nth(1).innerText()).trim();
    t.ok(secret.length >= 20, 'a secret is shown');
    const config = await call('GET', `/api/admin/clients/${client.id}/embed`);
    t.ok(config.service_account_client_id, 'REST: the credential exists');
    t.equal((await shown.locator('code').first().innerText()).trim(), config.service_account_client_id);
    t.notOk(JSON.stringify(config).includes(secret), 'the configuration never carries the secret');
    await checkPage(t, page, 'embed-secret-shown');

    await page.reload();
    await page.getByRole('button', { name: 'Rotate secret' }).waitFor();
    t.equal(await page.getByText(secret).count(), 0, 'after a reload the secret is not shown');
    const stored = await storage(page);
    t.notOk(stored.local.includes(secret) || stored.session.includes(secret), 'nor kept in the browser');
    t.equal(await shown.count(), 0);

    await page.getByRole('button', { name: 'Revoke credential' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    t.ok((await call('GET', `/api/admin/clients/${client.id}/embed`)).service_account_client_id, 'cancel: nothing revoked');
    await page.getByRole('button', { name: 'Revoke credential' }).click();
    t.match(await dialog.innerText(), 'Its embed tokens stop working at once');
    await dialog.getByRole('button', { name: 'Revoke credential' }).click();
    await page.getByRole('button', { name: 'Provision credential' }).waitFor();
    await status(page, 'Credential revoked');
    t.equal((await call('GET', `/api/admin/clients/${client.id}/embed`)).service_account_client_id, null, 'REST: revoked');
    await checkPage(t, page, 'embed-revoked');
    await page.context().close();
  });

  t.test('staff see no Embed section', async (t) => {
    const page = await openConsole(f, 'staff', '/embed');
    await page.getByRole('navigation').waitFor();
    t.equal(await page.getByRole('link', { name: 'Embed' }).count(), 0);
    await page.context().close();
  });
}

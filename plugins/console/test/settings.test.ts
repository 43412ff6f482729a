// The Settings section in real Chromium, signed in as acme's admin: a member
// added with the staff role, its roles changed and the member removed; a
// client created; an API key created (shown once), then revoked after the
// confirm dialog; each checked through REST. Then the page in Portuguese on
// a 390 px screen.
import t from 'tap';
import { axeViolations, browserMissing, consoleFixture, openConsole, screenshot, type ConsolePage } from './helpers.ts';

const missing = browserMissing();
if (missing) {
  t.test(`settings section browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const f = await consoleFixture(t);
  const rest = (url: string) => f.tp.request({ url, token: f.tokens.admin, tenant: 'acme' });
  const member = async (sub: string) =>
    ((await rest('/api/admin/users?limit=500')).body.items as { sub: string; organizations: Record<string, { roles: string[] }> }[]).find((u) => u.sub === sub);

  const checkPage = async (t: { same: (a: unknown, b: unknown, m: string) => void }, page: ConsolePage, heading: string, name: string) => {
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), [heading], `${name}: one h1`);
    t.same(await axeViolations(page), [], `${name}: axe finds nothing`);
    t.same(page.errors, [], `${name}: no page error`);
    await screenshot(page, name);
  };

  t.test('members: add with the staff role, change the roles, remove', async (t) => {
    const page = await openConsole(f, 'admin', '/settings');
    const members = page.getByRole('table', { name: 'Members' });
    await members.waitFor();
    t.equal(await members.getByRole('row', { name: /ada-admin/ }).getByRole('button').count(), 0, 'no actions on one\'s own row');
    await checkPage(t, page, 'Settings', 'settings');

    const add = page.getByRole('form', { name: 'Add a member' });
    await add.getByRole('textbox', { name: 'Subject', exact: true }).fill('nina-new');
    await add.getByRole('textbox', { name: 'Display name', exact: true }).fill('Nina');
    await add.getByRole('checkbox', { name: 'Staff (staff)' }).check();
    await add.getByRole('button', { name: 'Add' }).click();
    await members.getByRole('row', { name: /nina-new/ }).waitFor();
    t.same((await member('nina-new'))?.organizations, { acme: { roles: ['staff'] } }, 'REST: nina-new is staff in acme');

    await page.getByRole('button', { name: 'Change roles of nina-new' }).click();
    const editor = page.getByRole('form', { name: 'Roles of nina-new' });
    await editor.getByRole('checkbox', { name: 'Administrator (admin)' }).check();
    await editor.getByRole('checkbox', { name: 'Staff (staff)' }).uncheck();
    await editor.getByRole('button', { name: 'Save' }).click();
    await members.getByRole('row', { name: /nina-new/ }).getByRole('cell', { name: 'admin', exact: true }).waitFor();
    t.same((await member('nina-new'))?.organizations.acme, { roles: ['admin'] }, 'REST: now admin only');

    await page.getByRole('button', { name: 'Remove nina-new' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await members.getByRole('row', { name: /nina-new/ }).waitFor({ state: 'detached' });
    t.equal(await member('nina-new'), undefined, 'REST: no longer a member');
    await page.context().close();
  });

  t.test('clients and API keys: create a client, a key shown once, revoke it', async (t) => {
    const page = await openConsole(f, 'admin', '/settings');
    const clients = page.getByRole('table', { name: 'Clients' });
    await clients.waitFor();
    const createClient = page.getByRole('form', { name: 'Create a client' });
    await createClient.getByRole('textbox', { name: 'Name' }).fill('mobile-app');
    await createClient.getByRole('button', { name: 'Create' }).click();
    await clients.getByRole('row', { name: /mobile-app/ }).waitFor();
    const client = ((await rest('/api/admin/clients')).body.items as { id: number; name: string }[]).find((c) => c.name === 'mobile-app');
    t.ok(client, 'REST: the client exists');

    const createKey = page.getByRole('form', { name: 'Create an API key' });
    await createKey.getByRole('textbox', { name: 'Name' }).fill('ci-key');
    await createKey.getByRole('combobox', { name: 'Client' }).selectOption({ label: 'mobile-app' });
    await createKey.getByRole('button', { name: 'Create' }).click();
    const shown = page.getByRole('textbox', { name: 'The key' });
    await shown.waitFor();
    const key = await shown.inputValue();
    t.match(key, /^pk_acme_[0-9a-f]{64}$/, 'the key is shown');
    t.equal((await f.tp.request({ url: '/api/me', headers: { 'x-api-key': key } })).status, 200, 'and works');
    const listed = ((await rest('/api/admin/api-keys')).body.items as { name: string; client_id: number; key?: string }[]).find((k) => k.name === 'ci-key');
    t.equal(listed?.client_id, client?.id, 'REST: the key belongs to mobile-app');
    t.equal(listed?.key, undefined, 'REST: never the key again');
    await checkPage(t, page, 'Settings', 'settings-key-created');
    await page.getByRole('button', { name: 'Done' }).click();
    t.equal(await page.getByRole('textbox', { name: 'The key' }).count(), 0, 'closed, the key is gone from the page');
    t.notOk(await page.evaluate((k) => document.querySelector('console-section-settings')!.shadowRoot!.querySelector('console-settings-access')!.shadowRoot!.innerHTML.includes(k), key), 'not in the section any more');

    await page.getByRole('button', { name: 'Revoke ci-key' }).click();
    const dialog = page.getByRole('dialog');
    t.match(await dialog.innerText(), /Revoke the API key ci-key\?/);
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    const keys = page.getByRole('table', { name: 'API keys' });
    await keys.getByRole('row', { name: /ci-key/ }).getByText('revoked').waitFor();
    t.equal((await f.tp.request({ url: '/api/me', headers: { 'x-api-key': key } })).status, 401, 'REST: the key is refused');
    await checkPage(t, page, 'Settings', 'settings-key-revoked');
    await page.context().close();
  });

  t.test('public origins: saved from the page, refused by name when malformed', async (t) => {
    const page = await openConsole(f, 'admin', '/settings');
    const form = page.getByRole('form', { name: 'Public origins' });
    await form.getByRole('textbox', { name: 'Origins, one per line' }).fill('https://www.city.example\nhttps://city.example/path');
    await form.getByRole('button', { name: 'Save origins' }).click();
    await page.getByRole('alert').filter({ hasText: 'https://city.example/path' }).waitFor();
    t.same((await rest('/api/admin/public-origins')).body, { origins: [] }, 'REST: a refused list changes nothing');
    await form.getByRole('textbox', { name: 'Origins, one per line' }).fill('https://www.city.example\nhttps://maps.city.example');
    await form.getByRole('button', { name: 'Save origins' }).click();
    await page.getByText('Public origins saved').waitFor();
    t.same((await rest('/api/admin/public-origins')).body, { origins: ['https://maps.city.example', 'https://www.city.example'] }, 'REST: saved');
    await checkPage(t, page, 'Settings', 'settings-origins');
    await page.context().close();
  });

  t.test('Portuguese on a 390 px screen', async (t) => {
    const page = await openConsole(f, 'admin', '/settings', { viewport: { width: 390, height: 844 } });
    await page.getByRole('combobox', { name: 'Language' }).selectOption('pt');
    await page.getByRole('table', { name: 'Membros' }).waitFor();
    await page.getByRole('table', { name: 'Chaves de API' }).waitFor();
    await checkPage(t, page, 'Definições', 'settings-pt-narrow');
    await page.context().close();
  });
}

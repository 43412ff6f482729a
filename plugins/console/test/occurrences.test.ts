// The Occurrences section in real Chromium: reports submitted through the
// public route appear in the staff's table and on the map (markers; the tiles
// from CONSOLE_MAP_TILE_URL, here a closed loopback port: the points show on
// the plain background); the filters narrow both; an occurrence's page moves
// it through a transition by the button named after the target state (the
// REST API confirms), and a template is previewed then applied onto its
// timeline. One browser, axe and a screenshot per page.
import t from 'tap';
import type { Test } from 'tap';
import { axeViolations, browserMissing, consoleFixture, openConsole, screenshot, type ConsolePage } from './helpers.ts';

const TILES = 'http://127.0.0.1:9/{z}/{x}/{y}.png';

const missing = browserMissing();
if (missing) {
  t.test(`occurrences section browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const f = await consoleFixture(t, { CONSOLE_MAP_TILE_URL: TILES, OCCURRENCES_PUBLIC_RATE_LIMIT: '1000' });
  const admin = f.tokens.admin;
  const call = async (method: string, url: string, payload?: unknown, token: string | undefined = admin) => {
    const res = await f.tp.request({ method, url, token, tenant: 'acme', payload });
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const type = async (name: string, code: string) =>
    call('POST', '/api/backoffice/occurrence-types', { name, code, form_schema: { version: 'v0', dynamic_fields: [] }, duplicate_policy: 'allow' }) as Promise<{ id: number }>;
  const pothole = await type('Pothole', 'pothole');
  const light = await type('Street light', 'street-light');
  const submit = (body: Record<string, unknown>) => call('POST', '/api/occurrences/public_submit', body, undefined) as Promise<{ id: number; reference: string }>;
  const hole = await submit({
    title: 'Deep pothole on Rua Augusta', description: 'Right lane, near the bus stop', occurrence_type: pothole.id,
    latitude: 38.7101, longitude: -9.1366, address: 'Rua Augusta 10', reporter_name: 'Ana Silva', reporter_email: 'ana@example.org',
  });
  const lamp = await submit({ title: 'Street light out', description: 'Dark since Monday', occurrence_type: light.id, latitude: 41.1496, longitude: -8.6109 });
  await call('POST', '/api/backoffice/templates', { name: 'Acknowledge', channel: 'note', body: 'Hello {{reporter_name}}, {{reference}} is {{state_label}}.' });

  const checkPage = async (t: Tap, page: ConsolePage, name: string) => {
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), ['Occurrences'], 'one h1');
    t.same(await axeViolations(page), [], `${name}: axe finds nothing`);
    t.same(page.errors, [], `${name}: no page error (a CSP violation would be one)`);
    await screenshot(page, name);
  };
  type Tap = Test;
  const markers = (page: ConsolePage) => page.locator('path.occurrence-marker');
  const row = (page: ConsolePage, reference: string) => page.getByRole('link', { name: reference, exact: true });

  t.test('the page allows images from the tiles\' host', async (t) => {
    const res = await f.tp.request({ url: '/console/occurrences' });
    t.ok(String(res.headers['content-security-policy']).split('; ').includes("img-src 'self' data: http://127.0.0.1:9"));
    const config = await f.tp.request({ url: '/api/console/config' });
    t.same(config.body.map, { tile_url: TILES });
  });

  t.test('staff: the reports in the table and on the map; the filters narrow them', async (t) => {
    const page = await openConsole(f, 'staff', '/occurrences');
    await row(page, hole.reference).waitFor();
    await row(page, lamp.reference).waitFor();
    await t.resolves(page.waitForFunction(() => document.querySelector('console-section-occurrences')?.shadowRoot?.querySelectorAll('path.occurrence-marker').length === 2), 'two markers');
    t.equal(await markers(page).count(), 2);
    await checkPage(t, page, 'occurrences-list');

    await page.getByLabel('Type').selectOption({ label: 'Street light' });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await row(page, hole.reference).waitFor({ state: 'detached' });
    t.equal(await row(page, lamp.reference).count(), 1, 'type: the street light only');
    await t.resolves(page.waitForFunction(() => document.querySelector('console-section-occurrences')?.shadowRoot?.querySelectorAll('path.occurrence-marker').length === 1), 'one marker');

    await page.getByRole('button', { name: 'Clear' }).click();
    await row(page, hole.reference).waitFor();
    await page.getByLabel('Text').fill('pothole');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await row(page, lamp.reference).waitFor({ state: 'detached' });
    t.equal(await row(page, hole.reference).count(), 1, 'text: the pothole only');

    await page.getByRole('button', { name: 'Clear' }).click();
    await row(page, lamp.reference).waitFor();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Created until').fill(yesterday);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('none match these filters').waitFor();
    t.equal(await row(page, hole.reference).count(), 0, 'created until yesterday: none');
    await page.context().close();
  });

  t.test('staff: an occurrence\'s page, a transition by the target state\'s button, a template previewed and applied', async (t) => {
    const page = await openConsole(f, 'staff', '/occurrences');
    await row(page, hole.reference).click();
    await page.getByRole('heading', { level: 2, name: `${hole.reference}: Deep pothole on Rua Augusta` }).waitFor();
    t.equal(new URL(page.url()).pathname, `/console/occurrences/${hole.id}`, 'the address names the occurrence');
    await page.getByText('Ana Silva · ana@example.org').waitFor();

    await page.getByLabel('Comment (optional)').fill('Checked on site');
    await page.getByRole('button', { name: 'Triaged', exact: true }).click();
    await page.getByRole('button', { name: 'In progress', exact: true }).waitFor();
    const after = await call('GET', `/api/backoffice/occurrences/${hole.id}`, undefined, f.tokens.staff);
    t.equal(after.state, 'triaged', 'the REST API shows the new state');
    t.equal(after.history.at(-1).comment, 'Checked on site');
    await page.getByText('Submitted → Triaged').waitFor();
    await page.getByRole('status').filter({ hasText: 'State changed to Triaged' }).waitFor({ state: 'attached' });

    await page.getByLabel('Template', { exact: true }).selectOption({ label: 'Acknowledge (Note)' });
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText(`Hello Ana Silva, ${hole.reference} is Triaged.`).waitFor();
    t.equal((await call('GET', `/api/backoffice/occurrences/${hole.id}`)).messages.length, 0, 'a preview stores nothing');
    await preview.getByRole('button', { name: 'Apply template' }).click();
    await preview.waitFor({ state: 'detached' });
    const messages = (await call('GET', `/api/backoffice/occurrences/${hole.id}`)).messages;
    t.same(messages.map((m: { body: string }) => m.body), [`Hello Ana Silva, ${hole.reference} is Triaged.`], 'applied: recorded on the occurrence');
    await page.getByRole('listitem').filter({ hasText: `Hello Ana Silva, ${hole.reference} is Triaged.` }).waitFor();
    await checkPage(t, page, 'occurrence-detail');

    // Duplicate needs the original's reference: an unknown one is refused in place, nothing sent.
    await page.getByLabel('Duplicate of (reference)').fill('OC-1999-999999');
    await page.getByRole('button', { name: 'Duplicate', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'No occurrence has the reference OC-1999-999999.' }).waitFor();
    t.equal((await call('GET', `/api/backoffice/occurrences/${hole.id}`)).state, 'triaged', 'nothing changed');
    await page.getByLabel('Duplicate of (reference)').fill(lamp.reference);
    await page.getByRole('button', { name: 'Duplicate', exact: true }).click();
    await page.getByText('This report is a duplicate of:').waitFor();
    const duplicate = await call('GET', `/api/backoffice/occurrences/${hole.id}`);
    t.same([duplicate.state, duplicate.duplicate_of], ['duplicate', lamp.id], 'REST: marked a duplicate of the other report');
    await page.getByRole('link', { name: `#${lamp.id}` }).click();
    await page.getByRole('heading', { level: 2, name: `${lamp.reference}: Street light out` }).waitFor();
    await page.getByRole('region', { name: 'Duplicates' }).getByRole('link', { name: hole.reference }).waitFor();
    await page.goBack();

    await page.reload();
    await page.getByRole('heading', { level: 2, name: `${hole.reference}: Deep pothole on Rua Augusta` }).waitFor();
    t.pass('a reload opens the same occurrence');
    await page.getByRole('link', { name: 'All occurrences' }).click();
    await row(page, lamp.reference).waitFor();
    await t.resolves(page.waitForFunction(() => document.querySelector('console-section-occurrences')?.shadowRoot?.querySelectorAll('path.occurrence-marker').length === 2), 'back to the list: the map again');
    await page.context().close();
  });

  t.test('390 px: the table scrolls, the map below it', async (t) => {
    const page = await openConsole(f, 'staff', '/occurrences', { viewport: { width: 390, height: 844 } });
    await row(page, hole.reference).waitFor();
    await checkPage(t, page, 'occurrences-narrow');
    t.equal(await page.evaluate(() => document.documentElement.scrollWidth <= 390), true, 'no page-wide horizontal scroll');
    await page.context().close();
  });

  t.test('a member sees no Occurrences section', async (t) => {
    const page = await openConsole(f, 'member', '/occurrences');
    await page.getByRole('navigation').waitFor();
    t.equal(await page.getByRole('link', { name: 'Occurrences' }).count(), 0);
    await page.context().close();
  });
}

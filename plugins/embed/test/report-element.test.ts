// <platform-report> and the chat's map and report widgets in a real browser
// (Chromium headless shell), on a page of another origin (a second loopback
// server, as a city's own website): the tenant lists it among its public
// origins, so the public occurrence and forms routes answer it with CORS.
// Then staff move the report: its tracking page, opened from the link the
// element shows, has the new state, and the e-mail of a send_on_enter
// template reaches a real SMTP receiver on loopback. The map's tile server is
// unreachable, as in any offline run. Screenshots: .tap/screenshots/widget/.
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import t from 'tap';
import type { Page } from 'playwright-core';
import { startTestPlatform, tenantWithAdmin, until } from 'agent-platform/sdk/testing';
import { startReceiver } from '../../mail/test/receiver.ts';
import { ScriptedLlm, textChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { backendToken, createClient, mint } from './helpers.ts';
import { browserMissing, launchBrowser, screenshot } from './widget/browser.ts';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const AREA = { type: 'Polygon', coordinates: [[[-9.142, 38.707], [-9.131, 38.707], [-9.131, 38.714], [-9.142, 38.714], [-9.142, 38.707]]] };

const missing = browserMissing() ?? (existsSync(path.resolve('plugins/embed/widget/dist/platform-report.ce.js')) ? null : 'the report element is not built (node scripts/build-widget.ts)');
if (missing) {
  t.test(`report element browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const llm = await new ScriptedLlm().start();
  t.teardown(() => llm.stop());
  const receiver = await startReceiver({ user: 'mailer', pass: 'Rep0rt-mail' });
  t.teardown(() => receiver.close());
  const tp = await startTestPlatform(t, {
    listen: true,
    env: { LLM_API_KEY: 'sk-test', SMTP_URL: `smtp://mailer:Rep0rt-mail@127.0.0.1:${receiver.port}` },
    manifest: {
      plugins: [
        { plugin: './plugins/tenancy', options: { allowLocalhostOrigins: true } }, { plugin: './plugins/workflows' }, { plugin: './plugins/events' },
        { plugin: './plugins/forms', options: { publicRatePerMinute: 1000 } },
        { plugin: './plugins/mail', options: { from: 'City <city@example.org>', retryBaseSeconds: 1 } },
        { plugin: './plugins/occurrences', options: { publicRatePerMinute: 1000, publicAddressRatePerMinute: 10_000 } },
        { plugin: './plugins/chat', options: { frameFlushMs: 20, cancelPollMs: 25, followPollMs: 25, llmModel: 'scripted-1', llmBaseUrl: llm.baseUrl } },
        { plugin: './plugins/embed', options: { allowLocalhostOrigins: true } },
      ],
    },
  });
  const origin = tp.url('').replace(/\/+$/, '');
  /** The city's website: serves the test pages from another origin. */
  const pages = new Map<string, string>();
  const site = http.createServer((request, response) => {
    const body = pages.get(request.url ?? '');
    if (body === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => { site.closeAllConnections(); site.close(() => resolve()); }));
  const pageOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
  const { token: admin } = await tenantWithAdmin(tp, 'acme');
  const call = async (method: string, url: string, payload?: unknown) => {
    const answer = await tp.request({ method, url, token: admin, payload });
    if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const pothole = await call('POST', '/api/backoffice/occurrence-types', {
    name: 'Pothole', code: 'pothole', duplicate_policy: 'warn', duplicate_radius_m: 60,
    form_schema: { version: 'v0', dynamic_fields: [
      { key: 'depth_cm', label: 'Depth (cm)', type: 'integer', required: true },
      { key: 'lane', label: 'Lane', type: 'select', required: false, options: ['left', 'right'] },
    ] },
  });
  await call('POST', '/api/backoffice/occurrence-types', {
    name: 'Street light out', code: 'streetlight', duplicate_policy: 'allow',
    form_schema: { version: 'v1', format: 'FORMIO', schema: { display: 'form', components: [
      { type: 'number', key: 'lamps', label: 'Lamps out', input: true, validate: { required: true, min: 1, max: 50 } },
      { type: 'textfield', key: 'pole', label: 'Pole number', input: true, validate: { pattern: '[A-Z]{2}-[0-9]{3}' } },
      { type: 'button', key: 'submit', label: 'Submit', action: 'submit', input: true },
    ] } },
  });
  await call('PUT', '/api/backoffice/settings', { service_area: AREA });
  await call('PUT', '/api/admin/public-origins', { origins: [pageOrigin] });
  await call('POST', '/api/backoffice/templates', {
    name: 'Triaged', channel: 'email', send_on_enter: true, states: ['triaged'],
    subject: '{{reference}} is {{state_label}}', body: 'Your report was triaged. Follow it: {{tracking_link}}',
  });
  const occurrences = async () => (await call('GET', '/api/backoffice/occurrences?sort=created_at')).items as Record<string, any>[];

  const browser = await launchBrowser(t);
  /** A page of the city's website (another origin than the platform's). */
  const openPage = async (name: string, body: string, viewport = { width: 390, height: 844 }): Promise<Page & { errors: string[] }> => {
    const page = await browser.newPage({ viewport }) as Page & { errors: string[] };
    page.setDefaultTimeout(15_000);
    page.errors = [];
    page.on('pageerror', (error) => page.errors.push(String(error)));
    page.on('console', (message) => { if (process.env.WIDGET_TEST_DEBUG) console.error(`[page ${message.type()}] ${message.text()}`); });
    pages.set(`/test-pages/${name}`, body);
    // The chat map's default tiles (OpenStreetMap) are not reachable from a test run.
    await page.route('https://tile.openstreetmap.org/**', (route) => route.abort());
    await page.goto(`${pageOrigin}/test-pages/${name}`);
    return page;
  };
  const reportPage = (attributes = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Report a problem</title>
<script type="module" src="${origin}/embed/v1/platform-report.ce.js?v=0.3.0"></script></head>
<body><main><h1>City services</h1><platform-report api-url="${origin}" tenant="acme" tile-url="${origin}/no-tiles/{z}/{x}/{y}.png" ${attributes}></platform-report></main></body></html>`;
  const inReport = (page: Page, selector: string) => page.locator(`platform-report ${selector}`);
  /** The element focused inside the report's shadow root: tag, id and text. */
  const focused = (page: Page) => page.evaluate(() => {
    const a = document.querySelector('platform-report')!.shadowRoot!.activeElement as HTMLElement | null;
    return a ? `${a.tagName.toLowerCase()}#${a.id}.${a.className}|${(a.textContent ?? '').trim().slice(0, 60)}` : '';
  });
  /** Tab until the focused element matches (the keyboard alone), at most 40 presses. */
  const tabTo = async (page: Page, matches: RegExp) => {
    for (let i = 0; i < 40; i += 1) {
      await page.keyboard.press('Tab');
      if (matches.test(await focused(page))) return;
    }
    throw new Error(`focus never reached ${matches}`);
  };
  const axe = async (page: Page, selector: string) => {
    const source = (await import('node:fs')).readFileSync(path.resolve('node_modules/axe-core/axe.min.js'), 'utf8');
    if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: source });
    return page.evaluate(async (include) => {
      const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<any> } }).axe;
      const result = await axe.run({ include: [[include]] }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
      if (result.passes.length === 0) return [{ id: `axe checked nothing in ${include}`, nodes: [] }];
      return result.violations.map((v: any) => ({ id: v.id, nodes: v.nodes.map((n: any) => JSON.stringify(n.target)) }));
    }, selector);
  };
  const pointText = (page: Page) => inReport(page, '[part="point"]').textContent();

  t.test('a v0 report with a photo and a map click: 201, the reference and the tracking link, the occurrence with its attachment', async (t) => {
    const page = await openPage('v0', reportPage());
    await page.getByLabel('What is the problem?').selectOption({ label: 'Pothole' });
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Deep pothole by the bus stop');
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('A deep hole in the right lane');
    await page.getByRole('button', { name: 'Send report' }).click();
    const problems = inReport(page, 'form .problems');
    await problems.filter({ hasText: 'Place the point' }).waitFor();
    t.match(await problems.textContent(), /Depth \(cm\) is required/, 'a missing required field is listed');
    t.equal(await problems.getAttribute('role'), 'alert', 'problems are announced');
    t.match(await focused(page), /problems/, 'and take focus');
    await page.getByLabel('Depth (cm)').fill('12');
    await page.getByLabel('Lane').selectOption('right');
    await inReport(page, '.leaflet-container').waitFor();
    await inReport(page, '.map').click();
    t.match(await pointText(page), /Point placed at 38\.71\d+, -9\.13\d+/, 'a click places the point inside the area');
    t.equal(await inReport(page, '[part="warning"]').count(), 0, 'inside the service area: no warning');
    await page.getByLabel('Add photos').setInputFiles([{ name: 'hole.png', mimeType: 'image/png', buffer: PNG }, { name: 'blurry.png', mimeType: 'image/png', buffer: PNG }]);
    await inReport(page, '[part="photos"] li.done').nth(1).waitFor();
    await page.getByRole('button', { name: 'Remove blurry.png' }).click();
    await inReport(page, '[part="photos"] li').filter({ hasText: 'blurry.png' }).waitFor({ state: 'detached' });
    t.match(await inReport(page, '[part="photos"]').textContent(), /hole\.png attached/, 'the kept photo is attached');
    await page.getByLabel('Address or place description').fill('Rua Augusta 10');
    await page.getByLabel('E-mail').fill('ana@example.org');
    t.same(await axe(page, 'platform-report'), [], 'the form: no axe violation');
    await screenshot(page, 'report-form');
    await page.getByRole('button', { name: 'Send report' }).click();
    await inReport(page, '[part="confirmation"]').waitFor();
    const reference = (await inReport(page, '[part="reference"]').textContent())!.replace('Reference: ', '').trim();
    t.match(reference, /^OC-\d{4}-\d{6}$/, 'the reference is shown');
    t.equal(await inReport(page, '[part="tracking-link"]').getAttribute('href'), `${origin}/track/acme/${reference}`, 'the tracking link');
    t.match(await focused(page), /^h3/, 'focus moved to the confirmation');
    t.same(await axe(page, 'platform-report'), [], 'the confirmation: no axe violation');
    await screenshot(page, 'report-done');
    const [stored] = (await occurrences()).filter((o) => o.reference === reference);
    t.ok(stored, 'the occurrence exists');
    t.match(stored, { title: 'Deep pothole by the bus stop', address: 'Rua Augusta 10', reporter_email: 'ana@example.org', dynamic_fields: { depth_cm: 12, lane: 'right' } });
    t.same(stored!.attachments.map((a: { name: string }) => a.name), ['hole.png'], 'with the photo as its attachment');
    t.same(page.errors, [], 'no page error');

    await call('POST', `/api/occurrences/${stored!.id}/transition_state`, { to_state: 'triaged' });
    // The element opens the tracking link in a new tab: a tab of its own here, where axe may run past the page's CSP.
    const tracking = await browser.newPage({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    await tracking.goto((await inReport(page, '[part="tracking-link"]').getAttribute('href'))!);
    t.match(await tracking.getByRole('main').textContent(), /Triaged/, 'the tracking page shows the state staff moved it to');
    t.same(await axe(tracking, 'main'), [], 'the tracking page: no axe violation');
    await screenshot(tracking, 'report-tracking');
    await tracking.close();
    const mail = await until(async () => receiver.mails.find((m) => m.to.includes('ana@example.org') && m.subject === `${reference} is Triaged`), 'the triaged e-mail');
    t.match(mail.text, `/track/acme/${reference}`, 'the e-mail reached the SMTP server with the tracking link');
    await page.close();
  });

  t.test('keyboard only: a second report nearby gets the duplicate prompt, and "support instead" supports the first', async (t) => {
    const before = await occurrences();
    const page = await openPage('duplicate', reportPage('occurrence-type="pothole"'));
    await inReport(page, '.leaflet-container').waitFor();
    await tabTo(page, /#report-title/);
    await page.keyboard.type('Pothole near the bus stop');
    await tabTo(page, /#df-depth_cm/);
    await page.keyboard.type('10');
    await tabTo(page, /leaflet-container/);
    await page.keyboard.press('Enter');
    t.match(await pointText(page), /Point placed at 38\.71/, 'Enter on the map places the point at its centre');
    await tabTo(page, /button.*Send report/);
    await page.keyboard.press('Enter');
    const similar = inReport(page, '[part="similar"]');
    await similar.waitFor();
    t.match(await similar.textContent(), /Deep pothole by the bus stop[\s\S]*m away[\s\S]*State: triaged/, 'the similar report: title, distance, state (staff triaged it)');
    t.match(await focused(page), /^h3/, 'focus moved to the similar reports');
    t.same(await axe(page, 'platform-report'), [], 'the similar reports: no axe violation');
    await screenshot(page, 'report-similar');
    await tabTo(page, /Support this report instead/);
    await page.keyboard.press('Enter');
    await inReport(page, '[part="confirmation"]').waitFor();
    t.match(await inReport(page, '[part="confirmation"]').textContent(), /your support was added[\s\S]*1 people support/, 'support confirmed');
    const after = await occurrences();
    t.equal(after.length, before.length, 'no new occurrence');
    t.equal(after.find((o) => o.reference === before[0]!.reference)!.support_count, 1, 'the first report is supported');
    t.same(page.errors, [], 'no page error');
    await page.close();
  });

  t.test('a v1 type: the Form.io form renders (lazily) and validates before sending', async (t) => {
    const requested: string[] = [];
    const page = await openPage('v1', reportPage('occurrence-type="streetlight"'));
    page.on('request', (request) => requested.push(request.url()));
    const lamps = page.getByLabel('Lamps out');
    await lamps.waitFor();
    t.ok(requested.some((url) => /\/chunks\/formio-/.test(url)), 'the Form.io chunk was loaded for a v1 type');
    t.equal(await page.getByRole('button', { name: 'Submit', exact: true }).count(), 0, 'the schema\'s own button is left out');
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Three lamps out');
    await inReport(page, '.map').click();
    await page.getByRole('button', { name: 'Send report' }).click();
    await inReport(page, 'form .problems').filter({ hasText: 'Details is required' }).waitFor();
    t.match(await page.locator('platform-report [slot="form"]').textContent(), /Lamps out is required/, 'Form.io shows its own error');
    await lamps.fill('3');
    await page.getByLabel('Pole number').fill('AB-123');
    await page.getByRole('button', { name: 'Send report' }).click();
    await inReport(page, '[part="confirmation"]').waitFor();
    const reference = (await inReport(page, '[part="reference"]').textContent())!.replace('Reference: ', '').trim();
    const stored = (await occurrences()).find((o) => o.reference === reference)!;
    t.same(stored.dynamic_fields, { lamps: 3, pole: 'AB-123' }, 'the Form.io data is the occurrence\'s dynamic fields');
    await screenshot(page, 'report-formio');
    t.same(page.errors, [], 'no page error');
    await page.close();
  });

  t.test('in a chat answer: a map widget shows its markers, a report widget opens the prefilled form', async (t) => {
    const clientId = await createClient(tp, admin, 'city', 'ck_acme_city');
    const credential = await tp.request({ method: 'POST', url: `/api/admin/clients/${clientId}/embed-credentials`, token: admin });
    await call('PUT', `/api/admin/clients/${clientId}/embed`, { enabled: true, allowed_origins: [pageOrigin], features: { history: true, feedback: true } });
    const bearer = await backendToken({ tp, token: admin, tenant: 'acme', webClientId: 0, clientId, clientKey: 'ck_acme_city', credential: credential.body });
    const minted = await mint(tp, bearer, { client_key: 'ck_acme_city', external_user_id: 'citizen-1', display_name: 'Citizen' }, pageOrigin);
    const reply = 'Here is the place. <map_widget>{"title":"Reported places","points":[{"lat":38.7101,"lng":-9.1366,"label":"Rua Augusta 10"},{"lat":38.7112,"lng":-9.1372,"label":"Bus stop"}]}</map_widget>'
      + ' <report_widget>{"occurrence_type":"pothole","title":"Pothole on Rua Augusta","description":"Deep hole by the bus stop","latitude":38.7101,"longitude":-9.1366,"address":"Rua Augusta 10"}</report_widget> Done.';
    llm.enqueue({ chunks: textChunks(reply, 9) });
    const page = await openPage('chat', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>City chat</title>
<script>window.PlatformChat = { getAccessToken: () => ${JSON.stringify(minted.body.access_token)} };</script>
<script type="module" src="${origin}/embed/v1/platform-chat.ce.js?v=0.3.0"></script></head>
<body><main><h1>City</h1><platform-chat api-url="${origin}" client-key="ck_acme_city" launcher="false" style="display:block;height:780px"></platform-chat></main></body></html>`,
    { width: 600, height: 900 });
    const inChat = (selector: string) => page.locator(`platform-chat ${selector}`);
    await inChat('textarea').fill('There is a pothole on Rua Augusta');
    await inChat('textarea').press('Enter');
    await inChat('[part="feedback"]').waitFor();
    const map = inChat('figure[data-widget="map"]');
    await map.locator('.point-label').nth(1).waitFor();
    t.same((await map.locator('.point-label').allTextContents()).sort(), ['Bus stop', 'Rua Augusta 10'], 'the map widget shows its labelled markers');
    t.match(await map.locator('figcaption').textContent(), /Reported places/);
    const card = inChat('figure[data-widget="report"]');
    t.match(await card.textContent(), /Pothole on Rua Augusta[\s\S]*Deep hole by the bus stop/, 'the report card');
    await card.getByRole('button', { name: 'Report this' }).click();
    const form = card.locator('platform-report');
    await form.getByRole('textbox', { name: 'Title', exact: true }).waitFor();
    t.equal(await form.getByRole('textbox', { name: 'Title', exact: true }).inputValue(), 'Pothole on Rua Augusta', 'the title is prefilled');
    t.equal(await form.getByRole('textbox', { name: 'Description', exact: true }).inputValue(), 'Deep hole by the bus stop');
    t.equal(await form.getByLabel('Address or place description').inputValue(), 'Rua Augusta 10');
    t.equal(await form.getByLabel('What is the problem?').inputValue(), String(pothole.id), 'the type is chosen from its code');
    t.match(await form.locator('[part="point"]').textContent(), /38\.71010, -9\.13660/, 'the location is set');
    await form.getByLabel('Depth (cm)').fill('8');
    t.same(await axe(page, 'platform-chat'), [], 'the chat with both widgets: no axe violation');
    await screenshot(page, 'chat-map-and-report');
    t.same(page.errors, [], 'no page error');
    await page.close();
  });
}

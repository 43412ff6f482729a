// The widget in a real browser, host pages on another origin: each
// distribution (custom element, ES module mount/destroy, React and Vue
// wrappers), the launcher (lazy panel, open/close, default-open, keyboard
// only), theme tokens and ::part(), both breakpoints, named token providers
// (the page global and the tokenProviders prop), a token attribute
// ignored, a disallowed origin's error state, Portuguese, and axe-core with no
// violations. Screenshots: .tap/screenshots/widget/.
import t from 'tap';
import { textChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { createClient } from './helpers.ts';
import { assetUrls, snippet } from '../cli.ts';
import { axeViolations, browserMissing, bundleHostApp, elementPage, inWidget, newVisitor, openPage, screenshot, tokenScript, widgetFixture } from './widget/browser.ts';

const missing = browserMissing();
if (missing) {
  t.test(`widget browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const f = await widgetFixture(t);
  const shadowActive = (page: import('playwright-core').Page) =>
    page.evaluate(() => document.querySelector('platform-chat')!.shadowRoot!.activeElement?.getAttribute('part') ?? document.activeElement?.tagName);

  t.test('custom element launcher: lazy panel, keyboard only, Escape returns focus, axe', async (t) => {
    const requested: string[] = [];
    f.host.page('/noop', '');
    const page = await f.browser.newPage({ viewport: { width: 1024, height: 800 } });
    page.setDefaultTimeout(10_000);
    page.on('request', (request) => requested.push(request.url()));
    f.host.page('/launcher', elementPage(f, 'launcher'));
    await page.goto(`${f.host.origin}/launcher`);
    const launcher = inWidget(page, '[part="launcher"]');
    await launcher.waitFor();
    await page.waitForLoadState('networkidle');
    t.equal(await inWidget(page, '[part="panel"]').isVisible(), false, 'the panel is closed');
    t.notOk(requested.some((url) => /panel-/.test(url)), 'the panel chunk is not loaded before opening');
    t.same(await axeViolations(page), [], 'no axe violation on the launcher');
    await screenshot(page, 'launcher');
    await page.keyboard.press('Tab');
    t.equal(await shadowActive(page), 'launcher', 'Tab reaches the launcher');
    await page.keyboard.press('Enter');
    await inWidget(page, 'textarea').waitFor();
    t.ok(requested.some((url) => /chunks\/panel-/.test(url)), 'the panel chunk loads on open');
    t.equal(await launcher.getAttribute('aria-expanded'), 'true');
    await page.waitForFunction(() => document.querySelector('platform-chat')!.shadowRoot!.activeElement?.tagName === 'TEXTAREA');
    f.llm.enqueue({ chunks: textChunks('Keyboard answer.', 4) });
    await page.keyboard.type('Hello from the keyboard');
    await page.keyboard.press('Enter');
    await inWidget(page, '.message.assistant [part="message-body"]').filter({ hasText: 'Keyboard answer.' }).waitFor();
    t.equal(await inWidget(page, '[aria-live="polite"]').count(), 1, 'an aria-live region announces the answer');
    t.same(await axeViolations(page), [], 'no axe violation in the open panel');
    const ring = await inWidget(page, 'textarea').evaluate((el) => getComputedStyle(el).outlineStyle);
    t.equal(ring, 'solid', 'the focused control shows a focus ring');
    await page.keyboard.press('Escape');
    await inWidget(page, '[part="panel"]').waitFor({ state: 'hidden' });
    t.equal(await shadowActive(page), 'launcher', 'Escape closes the panel and focus returns to the launcher');
    await page.close();
  });

  t.test('default-open, placement, z-index, launcher size token', async (t) => {
    const page = await openPage(f, '/default-open', elementPage(f, 'launcher default-open placement="bottom-left" z-index="4242"'));
    await inWidget(page, 'textarea').waitFor();
    t.equal(await inWidget(page, '[part="panel"]').isVisible(), true, 'open at once');
    const box = await inWidget(page, '[part="launcher"]').boundingBox();
    t.equal(Math.round(box!.x), 20, 'bottom-left: offset 20px from the left');
    t.equal(Math.round(box!.width), 56, 'launcher size 56px');
    t.equal(await inWidget(page, '[part="launcher"]').evaluate((el) => getComputedStyle(el).zIndex), '4242');
    await inWidget(page, '[part="launcher"]').click();
    await inWidget(page, '[part="panel"]').waitFor({ state: 'hidden' });
    t.pass('the launcher closes it');
    await page.close();
  });

  t.test('ES module: mountPlatformChat and destroy()', async (t) => {
    const page = await openPage(f, '/es', `<!doctype html><html lang="en"><head><title>ES host</title>${tokenScript(newVisitor())}</head><body><main id="root"></main>
<script type="module">
import { mountPlatformChat } from '${f.apiUrl}/embed/v1/platform-chat.es.js?v=0.3.0';
window.chat = mountPlatformChat(document.getElementById('root'), { apiUrl: '${f.apiUrl}', clientKey: '${f.clientKey}', launcher: false, title: 'Mounted chat',
  getAccessToken: () => window.PlatformChat.getAccessToken() });
</script></body></html>`);
    await inWidget(page, 'textarea').waitFor();
    t.equal(await inWidget(page, '[part="header"] h2').textContent(), 'Mounted chat', 'props applied');
    await page.evaluate(() => (window as unknown as { chat: { destroy(): void } }).chat.destroy());
    t.equal(await page.locator('platform-chat').count(), 0, 'destroy() removes it');
    await page.close();
  });

  t.test('React wrapper (React as a peer, bundled by the host)', async (t) => {
    const app = await bundleHostApp(`
      import { createElement } from 'react';
      import { createRoot } from 'react-dom/client';
      import { PlatformChat } from './plugins/embed/widget/dist/platform-chat.react.js';
      createRoot(document.getElementById('root')).render(createElement(PlatformChat, {
        apiUrl: ${JSON.stringify(f.apiUrl)}, clientKey: ${JSON.stringify(f.clientKey)}, launcher: false, title: 'React chat',
        getAccessToken: () => window.PlatformChat.getAccessToken(), style: { display: 'block', height: '600px' } }));`);
    f.host.page('/react-app.js', app);
    const page = await openPage(f, '/react', `<!doctype html><html lang="en"><head><title>React host</title>${tokenScript(newVisitor())}</head><body><main id="root"></main><script type="module" src="/react-app.js"></script></body></html>`);
    await inWidget(page, 'textarea').waitFor();
    t.equal(await inWidget(page, '[part="header"] h2').textContent(), 'React chat');
    t.same((page as unknown as { errors: string[] }).errors, []);
    await page.close();
  });

  t.test('Vue wrapper (Vue as a peer, bundled by the host)', async (t) => {
    const app = await bundleHostApp(`
      import { createApp, h } from 'vue';
      import { PlatformChat } from './plugins/embed/widget/dist/platform-chat.vue.js';
      createApp({ render: () => h(PlatformChat, { apiUrl: ${JSON.stringify(f.apiUrl)}, clientKey: ${JSON.stringify(f.clientKey)}, launcher: false, title: 'Vue chat',
        getAccessToken: () => window.PlatformChat.getAccessToken() }) }).mount('#root');`);
    f.host.page('/vue-app.js', app);
    const page = await openPage(f, '/vue', `<!doctype html><html lang="en"><head><title>Vue host</title>${tokenScript(newVisitor())}</head><body><main id="root"></main><script type="module" src="/vue-app.js"></script></body></html>`);
    await inWidget(page, 'textarea').waitFor();
    t.equal(await inWidget(page, '[part="header"] h2').textContent(), 'Vue chat');
    t.same((page as unknown as { errors: string[] }).errors, []);
    await page.close();
  });

  t.test('theme tokens (element and ancestor, region fallbacks) and a ::part() rule of the host page', async (t) => {
    const style = `<style>
      body { --platform-chat-surface: rgb(1, 2, 3); }
      platform-chat { --platform-chat-accent: rgb(200, 0, 100); --platform-chat-font-size: 16px; }
      platform-chat::part(send-button) { border-radius: 3px; }
    </style>`;
    const page = await openPage(f, '/theme', elementPage(f, 'launcher="false"', style));
    await inWidget(page, 'textarea').waitFor();
    const computed = (selector: string, property: string) => inWidget(page, selector).first().evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);
    t.equal(await computed('[part~="send-button"]', 'background-color'), 'rgb(200, 0, 100)', 'accent set on the element');
    t.equal(await computed('[part="header"]', 'background-color'), 'rgb(1, 2, 3)', 'header-bg falls back to surface, set on an ancestor');
    t.equal(await computed('[part="messages"] [part="message-body"]', 'background-color'), 'rgb(1, 2, 3)', 'agent-bg falls back to surface');
    t.equal(await computed('[part="shell"]', 'font-size'), '16px', 'typography token');
    t.equal(await computed('[part="shell"]', 'background-color'), 'rgb(255, 255, 255)', 'bg default #ffffff');
    t.equal(await computed('[part~="send-button"]', 'border-top-left-radius'), '3px', '::part(send-button) from the page applies');
    await page.close();
  });

  t.test('breakpoints: edge to edge below 480px, launcher panel full screen below 560px', async (t) => {
    const narrow = await openPage(f, '/narrow', elementPage(f, 'launcher="false"'), { width: 400, height: 700 });
    await inWidget(narrow, 'textarea').waitFor();
    t.equal(await inWidget(narrow, '[part="shell"]').evaluate((el) => getComputedStyle(el).borderTopLeftRadius), '0px', 'no rounded corners below 480px');
    await narrow.close();
    const wide = await openPage(f, '/wide', elementPage(f, 'launcher="false"'), { width: 1024, height: 700 });
    await inWidget(wide, 'textarea').waitFor();
    t.equal(await inWidget(wide, '[part="shell"]').evaluate((el) => getComputedStyle(el).borderTopLeftRadius), '8px', 'radius 8px on a wide page');
    await wide.close();
    const mobile = await openPage(f, '/mobile', elementPage(f, 'launcher default-open'), { width: 520, height: 760 });
    await inWidget(mobile, 'textarea').waitFor();
    const box = await inWidget(mobile, '[part="panel"]').boundingBox();
    t.same([box!.x, box!.y, box!.width, box!.height], [0, 0, 520, 760], 'the launcher panel fills the screen below 560px');
    await screenshot(mobile, 'mobile-layout');
    await mobile.close();
    const desktop = await openPage(f, '/desktop', elementPage(f, 'launcher default-open'), { width: 1024, height: 800 });
    await inWidget(desktop, 'textarea').waitFor();
    t.equal(Math.round((await inWidget(desktop, '[part="panel"]').boundingBox())!.width), 390, 'launcher-width 390px above it');
    await desktop.close();
  });

  t.test('a token attribute is ignored with a console warning', async (t) => {
    const warnings: string[] = [];
    const authorizations: string[] = [];
    const page = await f.browser.newPage();
    page.setDefaultTimeout(10_000);
    page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
    page.on('request', (r) => { const a = r.headers().authorization; if (a) authorizations.push(a); });
    f.host.page('/token-attr', elementPage(f, 'launcher="false" token="attr-secret-123" access-token="attr-secret-456"'));
    await page.goto(`${f.host.origin}/token-attr`);
    await inWidget(page, 'textarea').waitFor();
    t.ok(warnings.some((w) => /"token" attribute is ignored/.test(w)), 'warned about token');
    t.ok(warnings.some((w) => /"access-token" attribute is ignored/.test(w)), 'warned about access-token');
    t.ok(authorizations.length > 0, 'requests carry the provider\'s token');
    t.notOk(authorizations.some((a) => a.includes('attr-secret')), 'never the attribute');
    await page.close();
  });

  t.test('a disallowed origin shows a clear error state; Portuguese from the page lang; axe on errors', async (t) => {
    const otherId = await createClient(f.tp, f.token, 'other', 'ck_acme_other');
    await f.tp.request({ method: 'PUT', url: `/api/admin/clients/${otherId}/embed`, token: f.token, payload: { enabled: true, allowed_origins: ['https://other.example'] } });
    const page = await openPage(f, '/disallowed', elementPage(f, 'launcher="false"').replace(f.clientKey, 'ck_acme_other'));
    const alert = inWidget(page, '[role="alert"]');
    await alert.waitFor();
    t.match(await alert.textContent(), /not enabled for this website/, 'says the site is not allowed');
    t.same(await axeViolations(page), [], 'no axe violation in the error state');
    await page.close();
    const pt = await openPage(f, '/pt', elementPage(f, 'launcher="false"').replace('lang="en"', 'lang="pt-BR"'));
    await inWidget(pt, 'textarea').waitFor();
    t.equal(await inWidget(pt, 'textarea').getAttribute('placeholder'), 'Escreva uma pergunta…');
    t.equal(await inWidget(pt, '[part~="send-button"]').textContent(), 'Enviar');
    await pt.close();
  });

  t.test('axe on the conversations panel', async (t) => {
    const page = await openPage(f, '/axe-conversations', elementPage(f, 'launcher="false" session-switching'));
    await inWidget(page, '[part~="conversations-button"]').click();
    await inWidget(page, '[part="conversations"]').waitFor();
    t.same(await axeViolations(page), [], 'no axe violation');
    await page.close();
  });

  t.test('the CLI snippet works with these assets; urls lists them with v=', async (t) => {
    const html = `<!doctype html><html lang="en"><head><title>Snippet host</title></head><body><main>${snippet(f.apiUrl, f.clientKey, `/embed-token.json?user=${newVisitor()}`)}</main></body></html>`;
    const page = await openPage(f, '/snippet', html);
    await inWidget(page, '[part="launcher"]').click();
    await inWidget(page, 'textarea').waitFor();
    await inWidget(page, '[role="log"]').waitFor();
    t.equal(await inWidget(page, '[role="alert"]').count(), 0, 'signed in through the snippet\'s token provider');
    const urls = assetUrls(f.apiUrl);
    for (const url of Object.values(urls)) {
      t.match(url, /\?v=0\.3\.0$/);
      t.equal((await f.tp.request({ url: url.slice(f.apiUrl.length) })).status, 200, url);
    }
    t.same(Object.keys(urls).sort(), ['custom_element', 'es_module', 'react', 'stylesheet', 'vue']);
    await page.close();
  });

  t.test('a named token provider, the legacy selected-client-id, and text options as attributes', async (t) => {
    const user = newVisitor();
    const html = `<!doctype html><html lang="en"><head><title>Named provider</title>
<script>window.PlatformChat = { tokenProviders: { shop: () => fetch('/embed-token?user=${user}').then((r) => r.text()) } };</script>
<script type="module" src="${f.apiUrl}/embed/v1/platform-chat.ce.js"></script></head><body>
<platform-chat api-url="${f.apiUrl}" selected-client-id="${f.clientKey}" token-provider="shop" launcher="false" title="Shop help"
  welcome-message="Welcome to the shop" placeholder="Type here"></platform-chat></body></html>`;
    const page = await openPage(f, '/named-provider', html);
    await inWidget(page, '[role="log"]').waitFor();
    t.equal(await inWidget(page, '[part="header"] h2').textContent(), 'Shop help');
    t.equal(await inWidget(page, '[part="message-body"]').first().textContent(), 'Welcome to the shop');
    t.equal(await inWidget(page, 'textarea').getAttribute('placeholder'), 'Type here');
    t.equal(await inWidget(page, '[role="alert"]').count(), 0, 'signed in through the named provider');
    await page.close();
  });

  t.test('tokenProviders as a prop: the named provider comes from the element, with no page global', async (t) => {
    const user = newVisitor();
    const html = `<!doctype html><html lang="en"><head><title>Provider prop</title>
<script type="module" src="${f.apiUrl}/embed/v1/platform-chat.ce.js"></script></head><body>
<platform-chat api-url="${f.apiUrl}" client-key="${f.clientKey}" token-provider="shop" launcher="false"></platform-chat>
<script>window.calls = 0; document.querySelector('platform-chat').tokenProviders = { shop: () => { window.calls += 1; return fetch('/embed-token?user=${user}').then((r) => r.text()); } };</script>
</body></html>`;
    const page = await openPage(f, '/provider-prop', html);
    await inWidget(page, '[role="log"]').waitFor();
    t.equal(await inWidget(page, '[role="alert"]').count(), 0, 'signed in through the prop\'s provider');
    t.ok(await page.evaluate(() => (window as unknown as { calls: number }).calls) > 0, 'the prop\'s provider was called');
    t.equal(await page.evaluate(() => typeof (window as { PlatformChat?: unknown }).PlatformChat), 'undefined', 'no window.PlatformChat');
    await page.close();
  });
}

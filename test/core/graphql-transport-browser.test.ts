// GraphiQL in a real browser (Debian's chromium-headless-shell through
// playwright-core, as plugins/embed's widget tests): the page renders from the
// platform alone (no request leaves its origin) and runs a query with the
// headers the caller sends. GraphiQL is third-party: no accessibility audit.
import t from 'tap';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startTestPlatform } from '../harness.ts';

const CHROMIUM = '/usr/bin/chromium-headless-shell';

t.test('GraphiQL renders and runs { viewer { kind } }', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing` }, async (t) => {
  const tp = await startTestPlatform(t, { listen: true, env: { PLATFORM_MANIFEST: 'test/fixtures/manifests/citations.yaml' } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  // Sent with every request of the page, GraphiQL's own included.
  await page.setExtraHTTPHeaders({ authorization: `Bearer ${tp.adminToken}` });
  const origin = new URL(tp.url('/')).origin;
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('blob:') && !url.startsWith('data:')) elsewhere.push(url);
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  const started = Date.now();
  await page.goto(tp.url('/graphql'));
  await page.locator('.graphiql-execute-button').waitFor({ timeout: 10_000 });
  const rendered = Date.now();
  await page.locator('.graphiql-execute-button').click();
  await page.waitForFunction(() => document.body.innerText.includes('super_admin'), undefined, { timeout: 10_000 });
  t.pass('the query ran and its answer is shown');
  t.comment(`page rendered in ${rendered - started} ms, query answered ${Date.now() - rendered} ms later`);
  t.same(elsewhere, [], 'no request leaves the platform\'s origin');
  t.same(errors, [], 'no script error');
});

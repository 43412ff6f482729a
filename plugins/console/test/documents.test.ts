// The Documents section in real Chromium, as acme's admin: a collection
// created in the page, a Markdown file uploaded through the Upload input
// that reaches ready (polled) and is found by Search documents with its
// score and source; a corrupt PDF that ends in error shows its reason and
// Retry, which re-ingests it; the aggregate status; axe on the page, at
// 1280 px and 390 px, a screenshot of each.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { axeViolations, browserMissing, consoleFixture, openConsole, screenshot } from './helpers.ts';

const GUIDE = '# Lighthouse guide\n\nThe lighthouse keeper writes every storm into the amber ledger kept beside the lamp room.\n';
const CORRUPT_PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('this is not a pdf body at all, no objects, no xref\n'.repeat(20))]);

const missing = browserMissing();
if (missing) {
  t.test(`console browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const f = await consoleFixture(t);

  t.test('collections, upload to ready, search, an error with its reason and Retry', async (t) => {
    const page = await openConsole(f, 'admin', '/documents');
    await page.getByRole('heading', { name: 'Collections', level: 2 }).waitFor();
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), ['Documents']);

    await page.getByLabel('New collection name').fill('Handbook');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('combobox', { name: 'Collection' }).waitFor();
    t.equal(await page.getByRole('combobox', { name: 'Collection' }).inputValue() !== '', true, 'the new collection is chosen');

    await page.getByLabel('Upload').setInputFiles({ name: 'guide.md', mimeType: 'text/markdown', buffer: Buffer.from(GUIDE) });
    const guide = page.getByRole('row').filter({ hasText: 'guide.md' });
    await guide.getByText('Ready', { exact: true }).waitFor({ timeout: 60_000 });
    t.pass('the uploaded document reaches ready in the page');

    await page.getByRole('searchbox', { name: 'Search documents' }).fill('amber ledger');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const hits = page.getByRole('list', { name: 'Passages for “amber ledger”' }).getByRole('listitem');
    await hits.first().waitFor();
    const first = await hits.first().innerText();
    t.match(first, /guide\.md/, 'the source document');
    t.match(first, /Score \d/, 'its score');
    t.match(first, /amber ledger/, 'the passage');

    await page.getByLabel('Upload').setInputFiles({ name: 'broken.pdf', mimeType: 'application/pdf', buffer: CORRUPT_PDF });
    const broken = page.getByRole('row').filter({ hasText: 'broken.pdf' });
    await broken.getByText('Error', { exact: true }).waitFor({ timeout: 60_000 });
    t.match(await broken.innerText(), /Invalid PDF/, 'the reason is shown');
    const retry = broken.getByRole('button', { name: 'Retry' });
    t.equal(await retry.getAttribute('aria-label'), 'Retry broken.pdf', 'Retry names its document');
    await page.getByText('Drain rate').waitFor();
    t.same(await axeViolations(page), [], 'axe finds nothing');
    t.same(page.errors, [], 'no page error');
    await screenshot(page, 'documents');

    const listed = await f.tp.request({ url: '/api/admin/documents', token: f.tokens.admin, headers: { 'x-tenant-id': 'acme' } });
    const brokenId = listed.body.items.find((d: { name: string }) => d.name === 'broken.pdf').document_id as string;
    await retry.click();
    await until(async () => {
      const detail = await f.tp.request({ url: `/api/admin/documents/${brokenId}`, token: f.tokens.admin, headers: { 'x-tenant-id': 'acme' } });
      return detail.body.revisions?.length === 2 && detail.body.ingestion_status === 'error';
    }, 'Retry re-ingests the document into a second revision', 60_000);
    await broken.getByRole('button', { name: 'Retry' }).waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    t.same(await axeViolations(page), [], 'axe finds nothing at 390 px');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    t.ok(overflow <= 0, 'the page does not scroll sideways at 390 px');
    await screenshot(page, 'documents-390');
    await page.context().close();
  });
}

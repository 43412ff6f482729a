// The widget against the offline responder (no model configured): an answer
// quoting the tenant's documents shows its citations as numbered sources under
// it (document name, the quoted passage on expand, verification status).
import t from 'tap';
import { createCollection, ingest } from '../../ingestion/test/helpers.ts';
import { browserMissing, elementPage, inWidget, openPage, widgetFixture } from './widget/browser.ts';

const missing = browserMissing();
if (missing) {
  t.test(`widget browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const f = await widgetFixture(t, {}, { offline: true });

  t.test('an extractive answer with its sources', async (t) => {
    const collection = await createCollection(f.tp, f.token, 'handbook');
    const doc = await ingest(f.tp, f.token, collection, 'returns-policy.txt', 'Returns are accepted within thirty days of delivery when the item is unused and in its original packaging.\n');
    t.equal(doc.status.ingestion_status, 'ready');
    const page = await openPage(f, '/offline', elementPage(f, 'launcher="false"'));
    const input = inWidget(page, 'textarea');
    await input.fill('Are returns accepted within thirty days?');
    await input.press('Enter');
    const sources = inWidget(page, '.sources li');
    await sources.first().waitFor();
    const summary = await sources.first().locator('summary').textContent();
    t.match(summary, /\[1\]\s*returns-policy\.txt/, 'numbered, with the document name');
    t.match(summary, /\((verified|not verified|verification pending)\)/, 'with its verification status');
    t.equal(await sources.first().locator('blockquote').isVisible(), false, 'the passage is folded');
    await sources.first().locator('summary').click();
    t.match(await sources.first().locator('blockquote').textContent(), /Returns are accepted within thirty days/, 'the quoted passage on expand');
    t.notMatch(await inWidget(page, '.message.assistant [part="message-body"]').last().textContent(), /<citations>/, 'the citation block is never text');
    await page.close();
  });
}

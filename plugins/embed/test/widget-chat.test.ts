// The widget in a real browser (Chromium headless shell), host page on another
// origin: a streamed answer rendered as sanitized Markdown with its activity
// indicator, Stop, feedback states, the conversations panel, uploads, a cut
// connection resumed, ask_user, images in an answer never fetched. Screenshots: .tap/screenshots/widget/.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { textChunks, toolCallChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { asTenant, axeViolations, browserMissing, cuttableRelay, elementPage, inWidget, openPage, screenshot, visitorApi, widgetFixture, newVisitor } from './widget/browser.ts';

const missing = browserMissing();
if (missing) {
  t.test(`widget browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const f = await widgetFixture(t);

  t.test('a streamed answer: activity, sanitized Markdown, links in a new tab', async (t) => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const answer = '**Bold** answer with [the docs](https://example.com/docs) <script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> end.';
    f.llm.enqueue({ chunks: textChunks(answer, 6), gate: { pauseAt: 3, until: gate } });
    const page = await openPage(f, '/stream', elementPage(f, 'launcher="false"'));
    const input = inWidget(page, 'textarea');
    await input.fill('What is in the docs?');
    await input.press('Enter');
    await inWidget(page, '[part~="activity"][data-activity="writing"]').waitFor();
    t.equal(await inWidget(page, '[part~="stop-button"]').count(), 1, 'Stop is offered while the answer streams');
    t.match(await inWidget(page, '.message.assistant [part="message-body"]').last().textContent(), /Bold answer/, 'text arrives before the end');
    release();
    await inWidget(page, '[part="feedback"]').waitFor();
    const body = inWidget(page, '.message.assistant [part="message-body"]').last();
    t.equal(await body.locator('strong').textContent(), 'Bold', 'Markdown rendered');
    const link = body.locator('a');
    t.equal(await link.getAttribute('href'), 'https://example.com/docs');
    t.equal(await link.getAttribute('target'), '_blank', 'links open in a new tab');
    t.equal(await link.getAttribute('rel'), 'noopener noreferrer');
    t.equal(await body.locator('script').count(), 0, 'no script element');
    t.equal(await body.locator('img').count(), 0, 'no image element (nor its event handler)');
    t.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined, 'nothing of the answer ran');
    t.equal(await inWidget(page, '[part~="activity"]').count(), 0, 'the indicator goes when the answer is done');
    t.equal(await inWidget(page, '[part~="send-button"]').count(), 1);
    t.same(f.llm.requests.at(-1)!.headers['content-type'], 'application/json');
    await screenshot(page, 'panel-with-answer');
    t.same((page as unknown as { errors: string[] }).errors, [], 'no page error');
    await page.close();
  });

  t.test('images in an answer are never fetched: links instead (alt text or URL), axe clean', async (t) => {
    const fetched: string[] = [];
    const images = http.createServer((req, res) => { fetched.push(req.url ?? ''); res.writeHead(200, { 'content-type': 'image/png' }).end(); });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => { images.closeAllConnections(); images.close(() => resolve()); }));
    const at = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
    const answer = `See ![Pump diagram](${at}/pump.png) and <img src="${at}/leak.png"> and [![Logo](${at}/logo.png)](https://example.com/home) `
      + `<table background="${at}/table.png"><tr><td>cell</td></tr></table> <svg><image href="${at}/svg.png"/></svg> <video poster="${at}/poster.png"></video> end.`;
    f.llm.enqueue({ chunks: textChunks(answer, 40) });
    const page = await openPage(f, '/images', elementPage(f, 'launcher="false"'));
    const input = inWidget(page, 'textarea');
    await input.fill('Show me the pump');
    await input.press('Enter');
    await inWidget(page, '[part="feedback"]').waitFor();
    const body = inWidget(page, '.message.assistant [part="message-body"]').last();
    t.match(await body.textContent(), /end\./, 'the whole answer is shown');
    t.equal(await body.locator('img, image, video, picture, source, [background], [poster], [srcset]').count(), 0, 'nothing that loads an image');
    const pump = body.locator(`a[href="${at}/pump.png"]`);
    t.equal(await pump.textContent(), 'Pump diagram', 'a Markdown image becomes a link named by its alt text');
    t.equal(await pump.getAttribute('target'), '_blank');
    t.equal(await pump.getAttribute('rel'), 'noopener noreferrer');
    t.equal(await body.locator(`a[href="${at}/leak.png"]`).textContent(), `${at}/leak.png`, 'an HTML image without alt becomes a link named by its URL');
    t.equal(await body.locator('a[href="https://example.com/home"]').textContent(), 'Logo', 'an image inside a link becomes its alt text');
    t.same(await axeViolations(page), [], 'no axe violation');
    await screenshot(page, 'answer-with-images');
    t.same(fetched, [], 'the image server received no request');
    t.same((page as unknown as { errors: string[] }).errors, [], 'no page error');
    await page.close();
  });

  t.test('Stop: the interrupted marker, and a question right after Stop waits for the stop', async (t) => {
    f.llm.enqueue({ chunks: textChunks('Partial answer that never', 5), hold: true }, { chunks: textChunks('Second answer.', 4) });
    const page = await openPage(f, '/stop', elementPage(f, 'launcher="false"'));
    const input = inWidget(page, 'textarea');
    await input.fill('Tell me a long story');
    await input.press('Enter');
    await inWidget(page, '.message.assistant [part="message-body"]').filter({ hasText: 'Partial answer that never' }).waitFor();
    await inWidget(page, '[part~="stop-button"]').click();
    await input.fill('And now?');
    await input.press('Enter');
    await inWidget(page, '[part="interrupted"]').waitFor();
    await inWidget(page, '.message.assistant [part="message-body"]').filter({ hasText: 'Second answer.' }).waitFor();
    const answers = await inWidget(page, '.message.assistant').allTextContents();
    t.match(answers.at(-2), /Partial answer that never/, 'the stopped answer keeps its text');
    t.match(answers.at(-2), /Answer stopped/, 'and shows the interrupted marker');
    t.match(answers.at(-1), /Second answer\./, 'the next question is answered');
    t.equal(f.llm.requests.at(-2)!.closedByClient, true, 'the model stream of the stopped turn was closed');
    t.equal(await inWidget(page, '[part="interrupted"]').count(), 1, 'only the stopped answer is marked');
    await page.close();
  });

  t.test('feedback: sending, failed with retry, sent (and stored)', async (t) => {
    const user = newVisitor();
    f.llm.enqueue({ chunks: textChunks('Rate me.', 4) });
    const page = await openPage(f, '/feedback', elementPage(f, 'launcher="false"', '', user));
    const input = inWidget(page, 'textarea');
    await input.fill('Question');
    await input.press('Enter');
    await inWidget(page, '[part="feedback"]').waitFor();
    await page.route('**/feedback?*', (route) => route.abort());
    await inWidget(page, '[part="feedback"] button[aria-label="Helpful"]').click();
    await inWidget(page, '[part="feedback"] input').fill('Clear and short');
    await inWidget(page, '[part="feedback-submit"]').click();
    await inWidget(page, '[part="feedback-result"].failed').waitFor();
    t.match(await inWidget(page, '[part="feedback-result"]').textContent(), /could not be sent/, 'a failure is shown');
    await page.unroute('**/feedback?*');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/feedback?*', async (route) => { await held; await route.continue(); });
    await inWidget(page, '[part="feedback-result"] button').click();
    await inWidget(page, '[part="feedback-result"]', ).filter({ hasText: 'Sending feedback' }).waitFor();
    release();
    await inWidget(page, '[part="feedback-result"].sent').waitFor();
    const api = await visitorApi(f, user);
    const [session] = (await api('GET', '/api/sessions')).body.items;
    const messages = (await api('GET', `/api/sessions/${session.id}/messages`)).body.items;
    t.match(messages.find((m: { role: string }) => m.role === 'assistant').feedback, { rating: 1, comment: 'Clear and short' }, 'the retried feedback is stored');
    await page.close();
  });

  t.test('conversations panel: groups, search, rename, delete after confirmation, Escape; an untouched conversation is discarded', async (t) => {
    const user = newVisitor();
    const api = await visitorApi(f, user);
    const ids: Record<string, string> = {};
    for (const [title, age] of [['Older delta', '30 days'], ['Previous charlie', '3 days'], ['Yesterday bravo', '1 day'], ['Today alpha', '0 days']] as const) {
      const created = await api('POST', '/api/sessions', { title });
      t.equal(created.status, 201);
      ids[title] = created.body.id;
      // Whole days back at local noon, so the calendar groups do not depend on the time of the run.
      await asTenant(f, `UPDATE chat_sessions SET last_active = date_trunc('day', now()) + interval '12 hours' - $2::interval WHERE id = $1`, [created.body.id, age]);
    }
    const page = await openPage(f, '/conversations', elementPage(f, 'launcher="false" session-switching', '', user));
    await inWidget(page, '[part~="conversations-button"]').click();
    await inWidget(page, '[part="conversations"] h3').first().waitFor();
    t.same(await inWidget(page, '[part="conversations"] h3').allTextContents(), ['Today', 'Yesterday', 'Previous 7 days', 'Older'], 'grouped by age');
    t.same(await inWidget(page, '[part="conversations"] .open').allTextContents(), ['Today alpha', 'Yesterday bravo', 'Previous charlie', 'Older delta']);
    await screenshot(page, 'conversations-panel');
    await inWidget(page, '[part="conversations"] input[type="search"]').fill('bravo');
    t.same(await inWidget(page, '[part="conversations"] .open').allTextContents(), ['Yesterday bravo'], 'search filters by title');
    await inWidget(page, '[part="conversations"] input[type="search"]').fill('');
    await inWidget(page, `[data-session="${ids['Previous charlie']}"] .rename`).click();
    await inWidget(page, `[data-session="${ids['Previous charlie']}"] input`).fill('Charlie renamed');
    await inWidget(page, `[data-session="${ids['Previous charlie']}"] button[type="submit"]`).click();
    await inWidget(page, '.open', ).filter({ hasText: 'Charlie renamed' }).waitFor();
    await inWidget(page, `[data-session="${ids['Older delta']}"] .delete`).click();
    t.match(await inWidget(page, `[data-session="${ids['Older delta']}"]`).textContent(), /Delete this conversation\?/, 'delete asks first');
    await inWidget(page, `[data-session="${ids['Older delta']}"] .confirm-delete`).click();
    await inWidget(page, `[data-session="${ids['Older delta']}"]`).waitFor({ state: 'detached' });
    const listed = (await api('GET', '/api/sessions')).body.items.map((s: { title: string }) => s.title);
    t.ok(listed.includes('Charlie renamed'), 'renamed on the server');
    t.notOk(listed.includes('Older delta'), 'deleted on the server');
    await page.keyboard.press('Escape');
    await inWidget(page, '[part="conversations"]').waitFor({ state: 'detached' });
    t.equal(await page.evaluate(() => document.querySelector('platform-chat')!.shadowRoot!.activeElement?.getAttribute('part')), 'conversations-button', 'Escape closes it and focus goes back to its button');
    // The reopened conversation (Today alpha) has no message: switching away discards it.
    await inWidget(page, '[part~="conversations-button"]').click();
    await inWidget(page, `[data-session="${ids['Yesterday bravo']}"] .open`).click();
    await inWidget(page, '[part="conversations"]').waitFor({ state: 'detached' });
    const after = (await api('GET', '/api/sessions')).body.items.map((s: { title: string }) => s.title);
    t.notOk(after.includes('Today alpha'), 'the untouched conversation was discarded');
    t.ok(after.includes('Yesterday bravo'));
    await page.close();
  });

  t.test('uploads: progress, the attached file carried by the next question, errors shown', async (t) => {
    const page = await openPage(f, '/upload', elementPage(f, 'launcher="false"'));
    const picker = inWidget(page, '[part="upload-button"] input[type="file"]');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/uploads?*', async (route) => { await held; await route.continue(); });
    await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Opening hours: 9 to 17 on weekdays.\n') });
    await inWidget(page, '.upload-status.progress').filter({ hasText: /Uploading notes\.txt: \d+%/ }).waitFor();
    t.pass('progress is shown while the file uploads');
    release();
    await inWidget(page, '.upload-status.done').waitFor();
    await page.unroute('**/uploads?*');
    t.match(await inWidget(page, '.upload-status').textContent(), /Attached notes\.txt/);
    f.llm.enqueue({ chunks: textChunks('It says 9 to 17.', 4) });
    const input = inWidget(page, 'textarea');
    await input.fill('What are the opening hours?');
    await input.press('Enter');
    await inWidget(page, '[part="feedback"]').waitFor();
    const asked = JSON.stringify(f.llm.requests.at(-1)!.body.messages);
    t.match(asked, /notes\.txt/, 'the question carries the attached file\'s context');
    await picker.setInputFiles({ name: 'blob.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 0, 9, 8]) });
    await inWidget(page, '.upload-status.failed').waitFor();
    t.match(await inWidget(page, '.upload-status').textContent(), /Upload of blob\.bin failed: this file type is not supported/, 'a refused file is explained');
    await page.close();
  });

  t.test('a dropped connection resumes the answer without losing or repeating text', async (t) => {
    const relay = await cuttableRelay(t, f.apiUrl);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const full = 'First half of the answer, then the second half after the cut.';
    f.llm.enqueue({ chunks: textChunks(full, 5), gate: { pauseAt: 5, until: gate } });
    const page = await openPage(f, '/resume', elementPage(f, 'launcher="false"').replace(`api-url="${f.apiUrl}"`, `api-url="${relay.url}"`));
    const input = inWidget(page, 'textarea');
    await input.fill('Long answer please');
    await input.press('Enter');
    await inWidget(page, '.message.assistant [part="message-body"]').filter({ hasText: 'First half of the answe' }).waitFor();
    t.ok(relay.cut() > 0, 'the connection is cut mid-answer');
    release();
    await inWidget(page, '[part="feedback"]').waitFor();
    t.equal((await inWidget(page, '.message.assistant [part="message-body"]').last().textContent())!.trim(), full, 'the whole answer, once');
    t.equal(await inWidget(page, '.message.assistant .error').count(), 0, 'no error shown');
    await page.close();
  });

  t.test('ask_user: the question with its options as buttons, answered through human-input', async (t) => {
    f.llm.enqueue(
      { chunks: toolCallChunks('call_size', 'ask_user', { question: 'Which size do you need?', options: ['Small', 'Large'] }), finishReason: 'tool_calls' },
      { chunks: textChunks('Large it is.', 4) },
    );
    const page = await openPage(f, '/ask', elementPage(f, 'launcher="false"'));
    const input = inWidget(page, 'textarea');
    await input.fill('I want a shirt');
    await input.press('Enter');
    const ask = inWidget(page, '.ask');
    await ask.waitFor();
    t.match(await ask.textContent(), /Which size do you need\?/);
    t.same(await ask.locator('button').allTextContents(), ['Small', 'Large'], 'options as buttons');
    await ask.locator('button', { hasText: 'Large' }).click();
    await inWidget(page, '.message.assistant [part="message-body"]').filter({ hasText: 'Large it is.' }).waitFor();
    const answered = JSON.stringify(f.llm.requests.at(-1)!.body.messages);
    t.match(answered, /Large/, 'the answer reached the agent as the tool result');
    t.equal(await ask.locator('button[disabled]').count(), 2, 'a question is answered once');
    t.same(f.llm.requests.at(-2)!.body.messages.length > 0, true);
    await page.close();
  });

  t.test('widgets: a declared report rendered (live and reloaded), an undeclared one never shown', async (t) => {
    const user = newVisitor();
    const reply = 'Here is your report. <report_widget>{"title":"Sales","summary":"Up 5% this week"}</report_widget> <webxr_widget>{"scene":"lobby"}</webxr_widget> Done.';
    f.llm.enqueue({ chunks: textChunks(reply, 7) });
    const html = elementPage(f, 'launcher="false"', '', user);
    const page = await openPage(f, '/widgets', html);
    const input = inWidget(page, 'textarea');
    await input.fill('Show me the sales report');
    await input.press('Enter');
    await inWidget(page, '[part="feedback"]').waitFor();
    const check = async (label: string) => {
      const card = inWidget(page, 'figure[data-widget="report"]');
      t.equal(await card.count(), 1, `${label}: the report card`);
      t.match(await card.textContent(), /Sales[\s\S]*Up 5% this week/, `${label}: its content`);
      const text = await inWidget(page, '.message.assistant').last().textContent();
      t.notMatch(text, /lobby|webxr_widget|report_widget|"title"/, `${label}: no undeclared widget, no raw tags or JSON`);
    };
    await check('streamed');
    await page.reload();
    await inWidget(page, '[role="log"] .message.assistant [part="feedback"]').waitFor();
    await check('reopened');
    const sessions = (await (await visitorApi(f, user))('GET', '/api/sessions')).body.items;
    t.equal(sessions.length, 1, 'the reload reopened the conversation instead of creating another');
    await page.close();
  });
}

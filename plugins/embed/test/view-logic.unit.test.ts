// The chat widget's view logic that needs no DOM (widget/src): conversation
// groups by local calendar day, how SSE frames change the streamed answer,
// stored messages as shown, SSE parsing, locale and strings, and options
// (attributes, manifest, defaults). The rendering is the browser tests'.
import t from 'tap';
import { applyFrame, fromStored, inlineWidgets, pendingAnswer, stripCitationBlock, userMessage } from '../widget/src/conversation.ts';
import { groupOf, groupSessions, parseUtc } from '../widget/src/groups.ts';
import { format, resolveLocale, STRINGS } from '../widget/src/i18n.ts';
import { attributeValue, missingOption, resolveOptions, tokenProviderOf } from '../widget/src/options.ts';
import { readFrames } from '../widget/src/sse.ts';
import type { Frame, Manifest, Session } from '../widget/src/types.ts';

t.test('parseUtc: timestamps without a zone are UTC; a missing one is the epoch', async (t) => {
  t.equal(parseUtc('2025-05-01T10:00:00').toISOString(), '2025-05-01T10:00:00.000Z');
  t.equal(parseUtc('2025-05-01T10:00:00Z').toISOString(), '2025-05-01T10:00:00.000Z');
  t.equal(parseUtc('2025-05-01T10:00:00+02:00').toISOString(), '2025-05-01T08:00:00.000Z');
  t.equal(parseUtc('2025-05-01T10:00:00-0130').toISOString(), '2025-05-01T11:30:00.000Z');
  t.equal(parseUtc(null).getTime(), 0);
  t.equal(parseUtc('').getTime(), 0);
});

t.test('groupOf: today, yesterday, the previous 7 days and older, by the local calendar day', async (t) => {
  const now = new Date(2025, 4, 10, 0, 30);
  t.equal(groupOf(new Date(2025, 4, 10, 0, 0), now), 'today', 'midnight is today');
  t.equal(groupOf(new Date(2025, 4, 9, 23, 59), now), 'yesterday', 'a minute before midnight is yesterday');
  t.equal(groupOf(new Date(2025, 4, 9, 0, 0), now), 'yesterday');
  t.equal(groupOf(new Date(2025, 4, 3, 0, 0), now), 'previous7');
  t.equal(groupOf(new Date(2025, 4, 2, 23, 59), now), 'older');
  t.equal(groupOf(new Date(2025, 5, 1), now), 'today', 'a future time is today');
});

t.test('groupSessions: in group order, searched by title (case-insensitive, trimmed), last_active else created_at', async (t) => {
  const now = new Date();
  const iso = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000).toISOString();
  const session = (id: string, title: string | null, lastActive: string | null, created = iso(30)): Session => ({ id, title, is_active: false, last_active: lastActive, created_at: created });
  const sessions = [session('old', 'Invoice question', null), session('new', 'Refund', iso(0)), session('week', 'invoice again', iso(3)), session('untitled', null, iso(0))];
  t.same(groupSessions(sessions, now, '').map((g) => [g.group, g.sessions.map((s) => s.id)]), [['today', ['new', 'untitled']], ['previous7', ['week']], ['older', ['old']]]);
  t.same(groupSessions(sessions, now, '  INVOICE ').map((g) => [g.group, g.sessions.map((s) => s.id)]), [['previous7', ['week']], ['older', ['old']]]);
  t.same(groupSessions(sessions, now, 'nothing like it'), []);
});

t.test('stored messages as shown: citation blocks and widget tags are not text; widgets read back from the tags', async (t) => {
  const stored = 'Answer [1].\n<citations>[{"ref":"1"}]</citations>\n<report_widget>{"rows":2}</report_widget><chart_widget>not json</chart_widget>  ';
  t.equal(stripCitationBlock(stored), 'Answer [1].');
  t.same(inlineWidgets(stored), [{ widget_type: 'report', data: { rows: 2 } }], 'a malformed widget is dropped');
  t.same(inlineWidgets('<report_widget>{}</chart_widget>'), [], 'the closing tag must match');
  const view = fromStored([
    { id: 1, role: 'user', content: 'Q <citations>kept</citations>' },
    { id: 2, role: 'tool', content: 'hidden' },
    { id: 3, role: 'assistant', content: stored, tool_metadata: { interrupted: true, citations: [{ ref: '1' }] }, feedback: { rating: 1 } },
  ]);
  t.equal(view.length, 2, 'only user and assistant messages');
  t.match(view[0], { role: 'user', id: 1, text: 'Q <citations>kept</citations>', interrupted: false, widgets: undefined, feedback: { state: 'idle', comment: '', formOpen: false } });
  t.match(view[1], { role: 'assistant', id: 3, text: 'Answer [1].', interrupted: true, citations: [{ ref: '1' }], widgets: [{ widget_type: 'report' }], feedback: { state: 'sent', rating: 1, comment: '' } });
  t.not(view[0].key, view[1].key, 'every message has its own key');
});

t.test('applyFrame: each frame changes the answer and the activity shown', async (t) => {
  const answer = pendingAnswer();
  t.match(answer, { role: 'assistant', text: '', streaming: true });
  const frame = (type: string, rest: Record<string, unknown> = {}): Frame => ({ seq: 0, type, ...rest });
  t.equal(applyFrame(answer, frame('activity', { activity: 'thinking' }), null), 'thinking');
  t.equal(applyFrame(answer, frame('tool_status', { status: 'running' }), 'thinking'), 'looking_up');
  t.equal(applyFrame(answer, frame('tool_status', { status: 'done' }), 'looking_up'), 'looking_up', 'other statuses keep the activity');
  t.equal(applyFrame(answer, frame('text', { delta: 'Hel' }), 'looking_up'), 'writing');
  applyFrame(answer, frame('text', { delta: 'lo' }), 'writing');
  t.equal(answer.text, 'Hello');
  applyFrame(answer, frame('widget', { widget_type: 'report', data: { a: 1 } }), 'writing');
  applyFrame(answer, frame('citations', { citations: [{ ref: '2' }] }), 'writing');
  t.same(answer.widgets, [{ widget_type: 'report', data: { a: 1 } }]);
  t.same(answer.citations, [{ ref: '2' }]);
  t.equal(applyFrame(answer, frame('tool_status', { status: 'awaiting_input', tool_call_id: 'c1', question: 'Which?' }), 'writing'), null);
  t.same(answer.ask, { toolCallId: 'c1', question: 'Which?', options: [], answered: false });
  t.equal(applyFrame(answer, frame('error', { message: 'boom' }), 'writing'), 'writing');
  t.equal(answer.error, 'boom');
  applyFrame(answer, frame('error', { code: 'INTERRUPTED', message: 'stopped' }), null);
  t.equal(answer.interrupted, true);
  t.equal(answer.error, 'boom', 'an interruption is no error');
  applyFrame(answer, frame('message', { message_id: 9 }), null);
  t.same({ id: answer.id, interrupted: answer.interrupted }, { id: 9, interrupted: false }, 'the message frame says whether it was interrupted');
  t.equal(applyFrame(answer, frame('something_new'), 'writing'), 'writing', 'unknown frames change nothing');
  t.equal(applyFrame(answer, frame('done'), 'writing'), null);
  t.equal(answer.streaming, false);
  t.match(userMessage('hi'), { role: 'user', text: 'hi', feedback: { state: 'idle' } });
});

t.test('readFrames: frames split anywhere, CRLF, multi-line data, the id as seq when the frame has none; bad blocks skipped', async (t) => {
  const chunks = ['id: 1\r\ndata: {"type":"text","del', 'ta":"a"}\r\n\r\n', ': comment\n\n', 'id: 2\ndata: {"type":"text",\ndata: "delta":"b","seq":7}\n\n', 'data: not json\n\nid: 3\ndata: {"type":"done"}\n\n', 'data: {"type":"unfinished"}'];
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
  const frames: Frame[] = [];
  await readFrames(new Response(body), (f) => frames.push(f));
  t.same(frames, [{ type: 'text', delta: 'a', seq: 1 }, { type: 'text', delta: 'b', seq: 7 }, { type: 'done', seq: 3 }]);
});

t.test('locale and strings: Portuguese for any pt*, English otherwise; the explicit locale first', async (t) => {
  t.equal(resolveLocale('pt', 'en'), 'pt');
  t.equal(resolveLocale(null, 'pt-BR'), 'pt');
  t.equal(resolveLocale('PT-pt', null), 'pt');
  t.equal(resolveLocale('en', 'pt'), 'en');
  t.equal(resolveLocale('', 'pt'), 'pt', 'an empty locale falls back to the page');
  t.equal(resolveLocale(null, 'ptx'), 'en');
  t.equal(resolveLocale(undefined, undefined), 'en');
  t.same(Object.keys(STRINGS.pt).sort(), Object.keys(STRINGS.en).sort(), 'every string in both languages');
  t.equal(format('{n} of {total} ({missing})', { n: 1, total: 3 }), '1 of 3 ()');
});

t.test('options: attributes as their types; what is missing; the manifest under the options, the defaults under it', async (t) => {
  t.equal(attributeValue('launcher', ''), true, 'a present boolean attribute is true');
  t.equal(attributeValue('launcher', 'false'), false);
  t.equal(attributeValue('allowUploads', '0'), false);
  t.equal(attributeValue('title', 'false'), 'false', 'other attributes keep their text');
  t.equal(attributeValue('title', null), undefined);
  t.equal(missingOption({}), 'api-url');
  t.equal(missingOption({ apiUrl: 'https://x' }), 'client-key');
  t.equal(missingOption({ apiUrl: 'https://x', selectedClientId: '' }), 'client-key');
  t.equal(missingOption({ apiUrl: 'https://x', selectedClientId: 0 as never }), null);

  const manifest: Manifest = { client_key: 'k', client_id: 1, tenant_display_name: null, default_mode: 'launcher', auth_modes: [], features: { history: false, feedback: false, uploads: true }, theme: {} };
  t.match(resolveOptions({ apiUrl: 'https://api.test//', clientKey: 'ck' }, manifest, 'pt-BR'), {
    apiUrl: 'https://api.test', clientKey: 'ck', locale: 'pt', title: undefined, resumeHistory: false, sessionSwitching: false,
    allowFeedback: false, allowUploads: true, autoStart: true, markEmbedRequests: true, launcher: true,
  });
  t.match(resolveOptions({ apiUrl: 'https://api.test', selectedClientId: 5 as never, title: '', resumeHistory: true, launcher: false, allowUploads: false }, manifest, null), {
    clientKey: '5', locale: 'en', title: undefined, resumeHistory: true, markEmbedRequests: false, launcher: false, allowUploads: false,
  });
  t.match(resolveOptions({ apiUrl: 'https://api.test', clientKey: 'ck' }, null, null), { resumeHistory: true, allowFeedback: true, allowUploads: false, launcher: false });
  const provider = () => 'token';
  t.equal(tokenProviderOf({ getAccessToken: provider }), provider, 'the prop first');
  t.equal(tokenProviderOf({ tokenProvider: 'named' }), undefined, 'no window here: no named or global provider');
  t.equal(tokenProviderOf({ tokenProvider: 'named', tokenProviders: { named: provider } }), provider, 'a named provider of the tokenProviders prop');
  t.equal(tokenProviderOf({ tokenProvider: 'other', tokenProviders: { named: provider } }), undefined, 'a name the prop lacks');
});

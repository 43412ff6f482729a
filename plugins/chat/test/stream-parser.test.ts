// The widget filter over token deltas: the same result however the model's
// text is cut into chunks (every cut position, and one character at a time).
import t from 'tap';
import { WidgetStreamParser, type ParserOutput } from '../widgets/stream-parser.ts';

const TEXT = 'A <report_widget>{"a":[1,2]}</report_widget> b <map_widget>{"x":1}</map_widget> c < d <citations><citation ref="1" chunk_id="c" revision_id="r" doc_name="n"/></citations> e <report_widget>not json</report_widget>!';

function run(pieces: string[], declared: string[], lift: boolean) {
  const parser = new WidgetStreamParser({ declared: new Set(declared), lift });
  const outputs: ParserOutput[] = [];
  for (const piece of pieces) outputs.push(...parser.push(piece));
  outputs.push(...parser.end());
  const text = outputs.filter((o) => o.kind === 'text').map((o) => (o as { text: string }).text).join('');
  const widgets = outputs.filter((o) => o.kind === 'widget');
  return { text, widgets, persisted: parser.persisted, citations: parser.citationBlocks, dropped: parser.dropped };
}

t.test('lifting: identical for every split of the text in two, and char by char', async (t) => {
  const whole = run([TEXT], ['report_widget'], true);
  t.equal(whole.text, 'A  b  c < d  e !');
  t.same(whole.widgets, [{ kind: 'widget', widgetType: 'report', data: { a: [1, 2] } }]);
  t.equal(whole.persisted, 'A <report_widget>{"a":[1,2]}</report_widget> b  c < d  e !');
  t.equal(whole.citations.length, 1);
  t.equal(whole.dropped, 2, 'the undeclared map and the malformed report');
  for (let cut = 1; cut < TEXT.length; cut++) {
    const split = run([TEXT.slice(0, cut), TEXT.slice(cut)], ['report_widget'], true);
    if (JSON.stringify(split) !== JSON.stringify(whole)) t.fail(`split at ${cut} differs`);
  }
  t.same(run([...TEXT], ['report_widget'], true), whole, 'one character per chunk');
});

t.test('inline delivery and no keys', async (t) => {
  const inline = run([...TEXT], ['report_widget'], false);
  t.equal(inline.text, 'A <report_widget>{"a":[1,2]}</report_widget> b  c < d  e <report_widget>not json</report_widget>!');
  t.same(inline.widgets, []);
  const none = run([...TEXT], [], false);
  t.equal(none.text, 'A  b  c < d  e !');
  t.equal(none.persisted, none.text);
});

t.test('each display widget key: its widget_type when lifted, stripped when not declared', async (t) => {
  const all = 'x<map_widget>{"lat":1}</map_widget><webxr_widget>{"scene":"s"}</webxr_widget><generate_widget>{"p":"q"}</generate_widget><report_widget>{"r":1}</report_widget>y';
  const lifted = run([...all], ['map_widget', 'webxr_widget', 'generate_widget', 'report_widget'], true);
  t.same(lifted.widgets.map((w) => (w as { widgetType: string }).widgetType), ['map', 'webxr', 'generate', 'report']);
  t.equal(lifted.text, 'xy');
  t.equal(lifted.persisted, all, 'stored inline');
  const onlyWebxr = run([...all], ['webxr_widget'], false);
  t.equal(onlyWebxr.text, 'x<webxr_widget>{"scene":"s"}</webxr_widget>y', 'the declared one inline, the others stripped');
});

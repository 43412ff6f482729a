// FlatText: the same text as plain concatenation, across its copies.
import t from 'tap';
import { FLATTEN_EVERY, FlatText } from '../model/flat-text.ts';

t.test('appended pieces read back in order, before, at and after each copy', async (t) => {
  // Pieces cut out of bigger strings, as JSON.parse cuts a token out of its event; some not ASCII.
  const events = Array.from({ length: FLATTEN_EVERY * 3 + 5 }, (_, i) =>
    JSON.stringify({ choices: [{ delta: { content: `token ${i} ${i % 4 === 0 ? 'çã 🙂 ' : 'plain text '}` } }] }));
  const text = new FlatText();
  let expected = '';
  for (const event of events) {
    const piece = JSON.parse(event).choices[0].delta.content as string;
    text.append(piece);
    expected += piece;
    t.equal(text.length, expected.length);
  }
  t.equal(text.toString(), expected);
  t.equal(`${text}`, expected, 'a template reads it too');
  t.equal(new FlatText().toString(), '', 'empty');
});

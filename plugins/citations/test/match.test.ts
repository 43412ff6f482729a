// The quote matcher on crafted text: each match type, spans that point at the
// right characters of the chunk (chunk.slice(start, end)), the 85% threshold
// on both sides, and the fast approximate search against the textbook table.
import t from 'tap';
import { FUZZY_THRESHOLD, matchQuote } from '../match/matcher.ts';
import { bestWindow, bestWindowReference } from '../match/myers.ts';
import { collapseWhitespace, normalizeWhitespace } from '../match/normalize.ts';

const CHUNK = 'Section 4. Safety\n\nOperators must wear   protective gloves\nwhen handling the solvent.\n'
  + 'Spills are contained with the absorbent kit stored\tnext to the eyewash station. Report every spill to the shift lead.';

t.test('exact: verbatim, score 1, span is the quote', async (t) => {
  const quote = 'Spills are contained with the absorbent kit';
  const m = matchQuote(CHUNK, quote);
  t.same({ type: m.match_type, score: m.score }, { type: 'exact', score: 1 });
  t.equal(CHUNK.slice(m.start!, m.end!), quote);
});

t.test('normalized: collapsed and extra whitespace and line breaks; span maps back to the original', async (t) => {
  const collapsed = matchQuote(CHUNK, 'Operators must wear protective gloves when handling the solvent.');
  t.equal(collapsed.match_type, 'normalized');
  t.equal(collapsed.score, 1);
  t.equal(CHUNK.slice(collapsed.start!, collapsed.end!), 'Operators must wear   protective gloves\nwhen handling the solvent.');

  const extra = matchQuote(CHUNK, '  absorbent   kit\n\nstored next to  the eyewash ');
  t.equal(extra.match_type, 'normalized');
  t.equal(CHUNK.slice(extra.start!, extra.end!), 'absorbent kit stored\tnext to the eyewash');

  const across = matchQuote(CHUNK, 'Safety Operators must');
  t.equal(across.match_type, 'normalized', 'a paragraph break counts as whitespace');
  t.equal(CHUNK.slice(across.start!, across.end!), 'Safety\n\nOperators must');
});

t.test('fuzzy: one changed word above 85%, score is the similarity, span covers the passage', async (t) => {
  const quote = 'Spills are contained with the absorbent pack stored next to the eyewash station.';
  const m = matchQuote(CHUNK, quote);
  t.equal(m.match_type, 'fuzzy');
  t.ok(m.score > FUZZY_THRESHOLD && m.score < 1, `score ${m.score}`);
  t.equal(CHUNK.slice(m.start!, m.end!), 'Spills are contained with the absorbent kit stored\tnext to the eyewash station.');

  const withBreaks = matchQuote(CHUNK, 'Operators must wear\nprotective glove\nwhen handling the solvent.');
  t.equal(withBreaks.match_type, 'fuzzy', 'whitespace differences and a one-letter change');
  t.equal(CHUNK.slice(withBreaks.start!, withBreaks.end!), 'Operators must wear   protective gloves\nwhen handling the solvent.');
});

t.test('not_found: below 85%, and unrelated text', async (t) => {
  const below = matchQuote(CHUNK, 'Spills are wiped with the paper towel kept beside the sink.');
  t.equal(below.match_type, 'not_found');
  t.ok(below.score <= FUZZY_THRESHOLD, `similarity ${below.score} reported`);
  t.equal(below.start, null);
  t.equal(below.end, null);
  t.equal(matchQuote(CHUNK, 'zzzz qqqq').match_type, 'not_found');
  t.equal(matchQuote(CHUNK, '   ').match_type, 'not_found', 'a blank quote matches nothing');
  t.equal(matchQuote('', 'anything').match_type, 'not_found', 'an empty chunk');
});

t.test('the threshold is strict: exactly 85% is not a match', async (t) => {
  // 20-character quote, 3 substitutions: similarity 1 - 3/20 = 0.85 exactly.
  const text = 'xxxxxxxxxx abcdefghijklmnopqrst yyyyyyyyyy';
  const quote = 'abcdefghijklmnopqXYZ';
  const m = matchQuote(text, quote);
  t.equal(m.match_type, 'not_found');
  t.equal(m.score, 0.85);
  const two = matchQuote(text, 'abcdefghijklmnopqrYZ');
  t.equal(two.match_type, 'fuzzy');
  t.equal(two.score, 0.9);
});

t.test('non-ASCII text: offsets are UTF-16 code units (String.prototype.slice)', async (t) => {
  const text = 'Überprüfung der Geräte 🔧 erfolgt\u00a0täglich um 6 Uhr.';
  const n = matchQuote(text, 'Geräte 🔧 erfolgt täglich');
  t.equal(n.match_type, 'normalized');
  t.equal(text.slice(n.start!, n.end!), 'Geräte 🔧 erfolgt\u00a0täglich');
  const f = matchQuote(text, 'Geraete 🔧 erfolgt täglich um 6 Uhr');
  t.equal(f.match_type, 'fuzzy');
  t.equal(text.slice(f.start!, f.end!), 'Geräte 🔧 erfolgt\u00a0täglich um 6 Uhr');
});

t.test('normalization keeps the offset of every character', async (t) => {
  const original = '  a \n\t b  c ';
  const n = normalizeWhitespace(original);
  t.equal(n.text, 'a b c');
  t.same([...n.offsets], [2, 3, 7, 8, 10]);
  t.equal(collapseWhitespace(original), 'a b c');
});

t.test('the bit-parallel window search agrees with the textbook table', async (t) => {
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const word = (n: number, alphabet: string) => Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  let checked = 0;
  for (let i = 0; i < 600; i += 1) {
    const alphabet = i % 2 === 0 ? 'ab' : 'abcdefgh';
    const pattern = word(1 + Math.floor(random() * 90), alphabet); // crosses the 32- and 64-row block boundaries
    const text = word(1 + Math.floor(random() * 160), alphabet);
    const fast = bestWindow(pattern, text);
    const reference = bestWindowReference(pattern, text);
    if ((fast?.distance ?? null) !== (reference?.distance ?? null)) t.fail(`distance of ${pattern} in ${text}`);
    if (fast) {
      // The window found has exactly that distance to the pattern (anchored both ends).
      const whole = bestWindowReference(pattern, text.slice(fast.start, fast.end));
      if (!whole || whole.distance > fast.distance) t.fail(`window of ${pattern} in ${text}`);
      checked += 1;
    }
  }
  t.ok(checked > 300);
});

// The passage of a chunk that answers a question: the contiguous sentences
// that cover most of the question's terms (words other than English and
// Portuguese stop words, lightly stemmed), taken verbatim so that the quote is
// an exact span of the chunk. Markdown structure is read, never quoted:
// heading lines, setext underlines, fences and thematic breaks split the chunk
// into blocks, a quote never crosses a block, and the nearest heading above
// the quote names where it comes from.

/** The most characters a quote spans when it joins sentences (one long sentence may reach twice this, then is cut at a word). */
export const QUOTE_CHARS = 400;

const STOP_WORDS = new Set(`
a about above after again all also am an and any are as at be because been before being below between both but by can
could did do does doing done down during each few for from further get got had has have having he her here hers him his
how i if in into is it its just me more most my no nor not now of off on once only or other our ours out over own same she
should so some such than that the their theirs them then there these they this those through to too under until up very
was we were what when where which while who whom whose why will with would you your yours tell please know need want
o os as um uma uns umas de do da dos das em no na nos nas ao aos por para pelo pela pelos pelas com sem sob sobre e ou mas
que qual quais quem como onde quando porque porquê se ser sao foi era estar esta estao ha tem ter eu tu ele ela nos vos
eles elas me te lhe lhes meu minha meus minhas teu tua seu sua seus suas nosso nossa isso isto aquilo este esse aquele
nao sim mais muito muita pode posso podem devo deve ja ainda tambem so ate entre depois antes
`.split(/\s+/).filter(Boolean));

/** Lowercase, without diacritics. */
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** A light stem for English and Portuguese: plural and common inflection endings. */
function stem(word: string): string {
  if (word.length <= 3) return word;
  for (const [suffix, replacement] of [['ies', 'y'], ['coes', 'cao'], ['oes', 'ao'], ['ing', ''], ['ed', ''], ['es', ''], ['s', '']] as const) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, -suffix.length) + replacement;
  }
  return word;
}

/** The question's terms: words (letters or digits) that are not stop words, stemmed. */
export function termsOf(text: string): Set<string> {
  const words = fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.filter((word) => !STOP_WORDS.has(word) && (word.length > 1 || /\d/.test(word))).map(stem));
}

interface Span {
  start: number;
  end: number;
}

interface Sentence extends Span {
  terms: Set<string>;
  /** The nearest heading above the sentence in the chunk, if any. */
  heading: string | null;
}

const ATX = /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/;
const UNDERLINE = /^\s{0,3}(=+|-+)\s*$/;
const RULE = /^\s{0,3}((\*\s*){3,}|(_\s*){3,}|(-\s*){3,})$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
/** Where a new sentence starts inside a block: after . ! ? and whitespace, or at a list item or table row on a new line. */
const SENTENCE_BREAK = /[.!?]["')\]]*\s+|\n(?=\s*([-*+]\s|\d+[.)]\s|\|))/g;

/** The blocks of a chunk (paragraphs and lists, never a heading), each as its sentences. */
function blocksOf(text: string): Sentence[][] {
  const blocks: Sentence[][] = [];
  let heading: string | null = null;
  let open: Span | undefined;
  const close = () => {
    if (open) blocks.push(sentencesOf(text, open, heading));
    open = undefined;
  };
  let offset = 0;
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    const atx = ATX.exec(line);
    if (UNDERLINE.test(line) && open) {
      // A setext heading: the block above the underline is its title.
      heading = text.slice(open.start, open.end).replace(/\s+/g, ' ').trim();
      open = undefined;
    } else if (line.trim() === '' || FENCE.test(line) || RULE.test(line)) {
      close();
    } else if (atx) {
      close();
      heading = atx[2].trim();
    } else if (open) {
      open.end = start + line.length;
    } else {
      open = { start, end: start + line.length };
    }
  }
  close();
  return blocks.filter((block) => block.length > 0);
}

function sentencesOf(text: string, block: Span, heading: string | null): Sentence[] {
  const body = text.slice(block.start, block.end);
  const sentences: Sentence[] = [];
  const add = (from: number, to: number) => {
    const piece = body.slice(from, to);
    const lead = piece.length - piece.trimStart().length;
    const trimmed = piece.trim();
    if (trimmed === '') return;
    const start = block.start + from + lead;
    sentences.push({ start, end: start + trimmed.length, terms: termsOf(trimmed), heading });
  };
  let from = 0;
  for (const match of body.matchAll(SENTENCE_BREAK)) {
    // The sentence keeps its closing punctuation; the whitespace after it goes.
    const to = match.index + match[0].trimEnd().length;
    add(from, to);
    from = match.index + match[0].length;
  }
  add(from, body.length);
  return sentences;
}

export interface Passage {
  /** The quote: an exact span of the chunk. */
  quote: string;
  /** How many of the question's terms the quote contains. */
  score: number;
  /** The nearest heading above the quote in the chunk (the chunk's section is the better name when known). */
  heading: string | null;
}

/** Cuts a span longer than `max` at the last whitespace before it (still an exact span). */
function capped(text: string, span: Span, max: number): Span {
  if (span.end - span.start <= max) return span;
  const cut = text.slice(span.start, span.start + max);
  const space = cut.search(/\s\S*$/);
  return { start: span.start, end: span.start + (space > max / 2 ? space : max) };
}

/**
 * The best passage of a chunk for the question's terms: the contiguous
 * sentences of one block covering the most terms, the shortest such, the
 * earliest of equals; with no term found, the chunk's first sentences.
 */
export function bestPassage(text: string, terms: Set<string>): Passage | undefined {
  const blocks = blocksOf(text);
  let best: { span: Span; score: number; length: number; heading: string | null } | undefined;
  for (const block of blocks) {
    for (let i = 0; i < block.length; i++) {
      const covered = new Set<string>();
      for (let j = i; j < block.length; j++) {
        const length = block[j].end - block[i].start;
        if (j > i && length > QUOTE_CHARS) break;
        const before = covered.size;
        for (const term of block[j].terms) if (terms.has(term)) covered.add(term);
        // A sentence that adds no term only lengthens the quote: the window ending before it is better.
        if (j > i && covered.size === before) continue;
        const score = covered.size;
        if (!best || score > best.score || (score === best.score && length < best.length && score > 0)) {
          best = { span: { start: block[i].start, end: block[j].end }, score, length, heading: block[i].heading };
        }
      }
    }
  }
  if (!best) return undefined;
  if (best.score === 0) {
    // Nothing of the question is in the chunk (a semantic match): its opening sentences.
    const first = blocks[0];
    let end = first[0].end;
    for (const sentence of first.slice(1)) {
      if (sentence.end - first[0].start > QUOTE_CHARS) break;
      end = sentence.end;
    }
    best = { span: { start: first[0].start, end }, score: 0, length: end - first[0].start, heading: first[0].heading };
  }
  const span = capped(text, best.span, QUOTE_CHARS * 2);
  return { quote: text.slice(span.start, span.end), score: best.score, heading: best.heading };
}

/** Text that is shown as written in Markdown emphasis (a document or section name). */
export const literal = (text: string) => text.replace(/[\\`*_[\]<]/g, '\\$&');

/** The quote as blockquote lines of plain text: list and quote markers dropped, never a heading. */
export function blockquoteOf(quote: string): string {
  return quote.split('\n')
    .map((line) => line.trim().replace(/^([-*+]|>+)\s+/, '').replace(/^#/, '\\#'))
    .filter((line) => line !== '')
    .map((line) => `> ${line}`)
    .join('\n');
}

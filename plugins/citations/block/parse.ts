// Reads the <citations> block of an assistant reply: entries with
// `ref`, `chunk_id`, `revision_id`, `doc_name` (required) and `page`,
// `section`, `quote`, `match_type` (optional).
//
// Tolerant of what models emit: any attribute order, single or double quotes,
// `\"` and unescaped inner quotes, entities and CDATA, fields as attributes or
// as child elements (`<quote>…</quote>`), the quote as the entry's bare text,
// `chunk-id`/`chunkId` spellings, `<cite>`/`<source>` for `<citation>`, a block
// in a Markdown code fence, a missing closing tag. Strict about the required
// fields: an entry without one, or with a chunk_id that is not a UUID, is
// reported in `errors` (with its position among the entries) and left out.
// Never throws. When a reply has several blocks, the last one is read.
import type { CitationEntry, MatchType, ParsedBlock } from '../api.ts';
import { decodeEntities } from './entities.ts';
import { Scanner, type Attribute } from './scanner.ts';
import { isUuid } from 'agent-platform/sdk';

export const BLOCK_LIMITS = {
  entries: 200,
  ref: 64,
  revision_id: 200,
  doc_name: 1000,
  section: 1000,
  quote: 20_000,
} as const;

type Field = 'ref' | 'chunk_id' | 'revision_id' | 'doc_name' | 'page' | 'section' | 'quote' | 'match_type';

/** Spellings of each field, compared without case, `-`, `_`, `.` or `:`. */
const FIELDS: Record<string, Field> = {
  ref: 'ref',
  chunkid: 'chunk_id', chunk: 'chunk_id',
  revisionid: 'revision_id', revision: 'revision_id',
  docname: 'doc_name', documentname: 'doc_name', document: 'doc_name',
  page: 'page', pagenumber: 'page',
  section: 'section',
  quote: 'quote', quotedtext: 'quote', text: 'quote',
  matchtype: 'match_type',
};
const ENTRY_TAGS = ['citation', 'cite', 'source', 'entry', 'item'];
const MATCH_TYPES: readonly string[] = ['exact', 'normalized', 'fuzzy', 'not_found'];
const CONTROL = /[\u0000-\u001f\u007f]/;

function fieldOf(name: string): Field | undefined {
  const key = name.replace(/[-_.:]/g, '');
  return Object.hasOwn(FIELDS, key) ? FIELDS[key] : undefined;
}

const shown = (value: string) => JSON.stringify(value.length > 64 ? `${value.slice(0, 61)}...` : value);

export function parseBlock(text: string): ParsedBlock {
  if (typeof text !== 'string' || text.length === 0) return { entries: [], errors: [], span: null };
  const scanner = new Scanner(text);
  const open = scanner.findLastOpen('citations', text.length);
  if (open < 0) {
    const stray = scanner.findClose('citations', 0, text.length);
    return {
      entries: [], span: null,
      errors: stray ? [{ index: -1, message: 'found </citations> without an opening <citations> tag' }] : [],
    };
  }
  const errors: ParsedBlock['errors'] = [];
  const opening = scanner.readTag(open + '<citations'.length, text.length);
  if (opening.problem) {
    return { entries: [], errors: [{ index: -1, message: `the <citations> tag is malformed: ${opening.problem}` }], span: { start: open, end: text.length } };
  }
  if (opening.selfClosing) return { entries: [], errors: [], span: fenced(text, open, opening.end) };
  const close = scanner.findClose('citations', opening.end, text.length);
  if (!close) errors.push({ index: -1, message: 'the <citations> block is not closed: read to the end of the reply' });
  const contentEnd = close ? close.start : text.length;
  const entries = readEntries(scanner, opening.end, contentEnd, errors);
  return { entries, errors, span: fenced(text, open, close ? close.end : text.length) };
}

/** Widens the span over a Markdown code fence that holds nothing but the block. */
function fenced(text: string, start: number, end: number): { start: number; end: number } {
  const before = /```[A-Za-z]*[ \t]*\r?\n[ \t]*$/.exec(text.slice(Math.max(0, start - 32), start));
  const after = /^[ \t]*\r?\n?[ \t]*```/.exec(text.slice(end, end + 32));
  if (!before || !after) return { start, end };
  return { start: start - before[0].length, end: end + after[0].length };
}

/**
 * Finds the next entry tag of any accepted name. Searches only move forward,
 * so each name's next position is remembered: the whole block is scanned
 * about once per name however many entries it holds.
 */
class EntryFinder {
  private readonly known = new Map<string, number>();
  private readonly scanner: Scanner;
  private readonly limit: number;

  constructor(scanner: Scanner, limit: number) {
    this.scanner = scanner;
    this.limit = limit;
  }

  next(from: number): { at: number; name: string } | undefined {
    let found: { at: number; name: string } | undefined;
    for (const name of ENTRY_TAGS) {
      let at = this.known.get(name);
      if (at === undefined || (at >= 0 && at < from)) {
        at = this.scanner.findOpen(name, from, this.limit);
        this.known.set(name, at);
      }
      if (at >= 0 && (!found || at < found.at)) found = { at, name };
    }
    return found;
  }
}

function readEntries(scanner: Scanner, from: number, limit: number, errors: ParsedBlock['errors']): CitationEntry[] {
  const entries: CitationEntry[] = [];
  const finder = new EntryFinder(scanner, limit);
  let index = 0;
  for (let next = finder.next(from); next; index += 1) {
    if (index >= BLOCK_LIMITS.entries) {
      errors.push({ index, message: `more than ${BLOCK_LIMITS.entries} entries: the rest were not read` });
      break;
    }
    const tag = scanner.readTag(next.at + 1 + next.name.length, limit);
    if (tag.problem) {
      errors.push({ index, message: `entry ${index + 1}: ${tag.problem}` });
      break;
    }
    const values = new Map<Field, string>();
    addAttributes(values, tag.attributes);
    let resume = tag.end;
    if (!tag.selfClosing) {
      // An entry ends at its closing tag, or (a forgotten one) where the next entry begins.
      const following = finder.next(tag.end);
      const close = scanner.findClose(next.name, tag.end, following ? following.at : limit);
      const contentEnd = close ? close.start : following ? following.at : limit;
      readContent(scanner, tag.end, contentEnd, values);
      resume = close ? close.end : contentEnd;
    }
    const entry = toEntry(values);
    if (typeof entry === 'string') errors.push({ index, message: `entry ${index + 1}: ${entry}` });
    else entries.push(entry);
    next = finder.next(resume);
  }
  return entries;
}

function addAttributes(values: Map<Field, string>, attributes: Attribute[]) {
  for (const { name, value } of attributes) {
    const field = fieldOf(name);
    if (field && !values.has(field)) values.set(field, decodeEntities(value));
  }
}

/** Child elements that name a field fill it (if the tag did not); the rest of the text is the quote. */
function readContent(scanner: Scanner, from: number, limit: number, values: Map<Field, string>) {
  const bare: string[] = [];
  let pos = from;
  while (pos < limit) {
    const lt = scanner.text.indexOf('<', pos);
    if (lt < 0 || lt >= limit) {
      bare.push(decodeText(scanner.text.slice(pos, limit)));
      break;
    }
    bare.push(decodeText(scanner.text.slice(pos, lt)));
    const special = skipSpecial(scanner, lt, limit, bare);
    if (special >= 0) {
      pos = special;
      continue;
    }
    const name = scanner.nameAt(lt + 1, limit);
    const field = name ? fieldOf(name) : undefined;
    if (!field) {
      bare.push('<'); // not one of ours (a `<` in the text, an HTML tag): keep it as text
      pos = lt + 1;
      continue;
    }
    const tag = scanner.readTag(lt + 1 + name.length, limit);
    if (tag.selfClosing || tag.problem) {
      pos = tag.end;
      continue;
    }
    const close = scanner.findClose(name, tag.end, limit);
    const valueEnd = close ? close.start : limit;
    if (!values.has(field)) values.set(field, textOf(scanner, tag.end, valueEnd));
    pos = close ? close.end : limit;
  }
  if (!values.has('quote')) {
    const quote = bare.join('');
    if (quote.trim() !== '') values.set('quote', quote);
  }
}

/** Comments, CDATA and stray closing tags of fields at `lt`: returns where reading resumes, or -1 when it is none of them. */
function skipSpecial(scanner: Scanner, lt: number, limit: number, text: string[]): number {
  if (scanner.startsWith('<!--', lt)) {
    const end = scanner.text.indexOf('-->', lt + 4);
    return end < 0 || end >= limit ? limit : end + 3;
  }
  if (scanner.startsWith('<![cdata[', lt)) {
    const end = scanner.text.indexOf(']]>', lt + 9);
    const stop = end < 0 || end >= limit ? limit : end;
    text.push(scanner.text.slice(lt + 9, stop));
    return stop === limit ? limit : stop + 3;
  }
  if (scanner.startsWith('</', lt) && fieldOf(scanner.nameAt(lt + 2, limit))) {
    // A stray closing tag of a field (its opening was missing): drop it.
    const end = scanner.text.indexOf('>', lt);
    return end < 0 || end >= limit ? limit : end + 1;
  }
  return -1;
}

/** Element text as models write it: `\"` (a JSON habit) means `"`; then entities. */
function decodeText(raw: string): string {
  return decodeEntities(raw.includes('\\') ? raw.replace(/\\(["'])/g, '$1') : raw);
}

/** The text of a field element: entities decoded, CDATA kept as written, comments dropped. */
function textOf(scanner: Scanner, from: number, limit: number): string {
  const parts: string[] = [];
  let pos = from;
  while (pos < limit) {
    const lt = scanner.text.indexOf('<', pos);
    if (lt < 0 || lt >= limit) {
      parts.push(decodeText(scanner.text.slice(pos, limit)));
      break;
    }
    parts.push(decodeText(scanner.text.slice(pos, lt)));
    const special = skipSpecial(scanner, lt, limit, parts);
    if (special >= 0) {
      pos = special;
    } else {
      parts.push('<');
      pos = lt + 1;
    }
  }
  return parts.join('');
}

/** The entry, or why it cannot be read. */
function toEntry(values: Map<Field, string>): CitationEntry | string {
  const get = (field: Field) => values.get(field)?.trim() ?? '';
  const missing = (['ref', 'chunk_id', 'revision_id', 'doc_name'] as const).filter((field) => get(field) === '');
  if (missing.length > 0) return `missing required ${missing.length === 1 ? 'field' : 'fields'} ${missing.map((f) => `"${f}"`).join(', ')}`;

  const ref = get('ref').replace(/^\[(.*)\]$/s, '$1').replace(/^\((.*)\)$/s, '$1').trim();
  const chunkId = get('chunk_id').replace(/^\{(.*)\}$/s, '$1').trim().toLowerCase();
  const revisionId = get('revision_id');
  const docName = get('doc_name');
  if (ref === '' || ref.length > BLOCK_LIMITS.ref) return `ref ${shown(ref)} must be 1 to ${BLOCK_LIMITS.ref} characters`;
  if (!isUuid(chunkId)) return `chunk_id ${shown(get('chunk_id'))} is not a UUID`;
  if (revisionId.length > BLOCK_LIMITS.revision_id || CONTROL.test(revisionId)) {
    return `revision_id ${shown(revisionId)} must be up to ${BLOCK_LIMITS.revision_id} printable characters`;
  }
  if (docName.length > BLOCK_LIMITS.doc_name) return `doc_name is longer than ${BLOCK_LIMITS.doc_name} characters`;
  const entry: CitationEntry = { ref, chunk_id: chunkId, revision_id: revisionId, doc_name: docName };

  // Optional fields: a value that cannot be read is left out rather than failing the entry.
  const page = /\d{1,9}/.exec(get('page'));
  if (page) entry.page = Number(page[0]);
  const section = get('section');
  if (section !== '') entry.section = section.slice(0, BLOCK_LIMITS.section);
  const quote = get('quote');
  if (quote.length > BLOCK_LIMITS.quote) return `quote is longer than ${BLOCK_LIMITS.quote} characters`;
  if (quote !== '') entry.quote = quote;
  const matchType = get('match_type').toLowerCase().replace(/[-\s]/g, '_');
  if (MATCH_TYPES.includes(matchType)) entry.match_type = matchType as MatchType;
  return entry;
}

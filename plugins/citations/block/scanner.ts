// The low-level reading of the <citations> block: tags, attributes and text,
// tolerant of what language models write. A hand-written scanner rather than
// regular expressions, so that no input can make it backtrack: every loop
// moves forward, and the one lookahead (is this quote the end of a value?) is
// bounded. It never throws; malformed input yields a `problem`.

export interface Attribute {
  name: string;
  value: string;
}

export interface Tag {
  attributes: Attribute[];
  /** Index just after the tag's `>` (or the limit when it is not closed). */
  end: number;
  selfClosing: boolean;
  problem?: string;
}

const MAX_LOOKAHEAD_NAME = 64;

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f';
}

function isNameChar(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57)
    || c === '_' || c === '-' || c === '.' || c === ':';
}

export class Scanner {
  readonly text: string;
  /** Lower-cased copy for case-insensitive tag names (same length: toLowerCase of ASCII-led tags keeps offsets). */
  private readonly lower: string;

  constructor(text: string) {
    this.text = text;
    this.lower = lowerSameLength(text);
  }

  skipSpace(pos: number, limit: number): number {
    while (pos < limit && isSpace(this.text[pos])) pos += 1;
    return pos;
  }

  /** A tag or attribute name at `pos` (lower-cased), or '' when there is none. */
  nameAt(pos: number, limit: number, maxLength = Infinity): string {
    let end = pos;
    while (end < limit && end - pos < maxLength && isNameChar(this.text[end])) end += 1;
    return this.lower.slice(pos, end);
  }

  startsWith(prefix: string, pos: number): boolean {
    return this.lower.startsWith(prefix, pos);
  }

  /** The next `<name` (followed by space, `>`, `/` or the end) at or after `from`, before `limit`; -1 when none. */
  findOpen(name: string, from: number, limit: number): number {
    const needle = `<${name}`;
    for (let at = this.lower.indexOf(needle, from); at >= 0 && at < limit; at = this.lower.indexOf(needle, at + 1)) {
      const next = this.text[at + needle.length];
      if (next === undefined || next === '>' || next === '/' || isSpace(next)) return at;
    }
    return -1;
  }

  /** The last `<name` opening before `limit`; -1 when none. */
  findLastOpen(name: string, limit: number): number {
    const needle = `<${name}`;
    for (let at = this.lower.lastIndexOf(needle, limit - 1); at >= 0; at = at > 0 ? this.lower.lastIndexOf(needle, at - 1) : -1) {
      const next = this.text[at + needle.length];
      if (next === undefined || next === '>' || next === '/' || isSpace(next)) return at;
    }
    return -1;
  }

  /** The next `</name>` (spaces allowed before `>`) at or after `from`: its start and the index after it. */
  findClose(name: string, from: number, limit: number): { start: number; end: number } | undefined {
    const needle = `</${name}`;
    for (let at = this.lower.indexOf(needle, from); at >= 0 && at < limit; at = this.lower.indexOf(needle, at + 1)) {
      const after = this.skipSpace(at + needle.length, limit);
      if (this.text[after] === '>') return { start: at, end: after + 1 };
      if (after >= limit) return { start: at, end: limit };
    }
    return undefined;
  }

  /** Reads the attributes of a tag whose name ends at `pos`, up to its `>` or `/>`. */
  readTag(pos: number, limit: number): Tag {
    const attributes: Attribute[] = [];
    for (;;) {
      pos = this.skipSpace(pos, limit);
      if (pos >= limit) return { attributes, end: limit, selfClosing: false, problem: 'a tag is not closed with ">"' };
      const c = this.text[pos];
      if (c === '>') return { attributes, end: pos + 1, selfClosing: false };
      if (c === '/') {
        if (this.text[pos + 1] === '>') return { attributes, end: pos + 2, selfClosing: true };
        pos += 1;
        continue;
      }
      const name = this.nameAt(pos, limit);
      if (name === '') {
        pos += 1; // a stray character (a lone quote, a comma): skip it
        continue;
      }
      pos = this.skipSpace(pos + name.length, limit);
      if (this.text[pos] !== '=') continue; // an attribute without a value: nothing to read
      pos = this.skipSpace(pos + 1, limit);
      const value = this.readValue(pos, limit);
      if (value.problem) return { attributes, end: limit, selfClosing: false, problem: `attribute "${name}" ${value.problem}` };
      attributes.push({ name, value: value.value });
      pos = value.end;
    }
  }

  /**
   * A quoted or bare attribute value. Inside quotes, a quote character ends the
   * value only where what follows looks like the rest of a tag (another
   * `name=`, `>`, `/>`, the end); otherwise it belongs to the value, which is
   * how models write `quote="he said "no""` or JSON-style `\"`. A `\` before a
   * quote that does not end the value is an escape and is dropped.
   */
  readValue(pos: number, limit: number): { value: string; end: number; problem?: string } {
    const quote = this.text[pos];
    if (quote !== '"' && quote !== "'") {
      let end = pos;
      while (end < limit && !isSpace(this.text[end]) && this.text[end] !== '>' && !(this.text[end] === '/' && this.text[end + 1] === '>')) end += 1;
      return { value: this.text.slice(pos, end), end };
    }
    const parts: string[] = [];
    let segment = pos + 1;
    for (let at = this.text.indexOf(quote, segment); ; at = this.text.indexOf(quote, at + 1)) {
      if (at < 0 || at >= limit) return { value: '', end: limit, problem: 'has no closing quote' };
      const escaped = at > segment && this.text[at - 1] === '\\';
      if (this.endsValue(at + 1, limit)) {
        parts.push(this.text.slice(segment, at));
        return { value: parts.join(''), end: at + 1 };
      }
      parts.push(this.text.slice(segment, escaped ? at - 1 : at), quote);
      segment = at + 1;
    }
  }

  private endsValue(pos: number, limit: number): boolean {
    const next = this.skipSpace(pos, limit);
    if (next >= limit) return true;
    const c = this.text[next];
    if (c === '>' || (c === '/' && this.text[next + 1] === '>')) return true;
    const name = this.nameAt(next, limit, MAX_LOOKAHEAD_NAME);
    if (name === '' || name.length === MAX_LOOKAHEAD_NAME) return false;
    return this.text[this.skipSpace(next + name.length, limit)] === '=';
  }
}

/** toLowerCase can change a string's length (e.g. 'İ'); lower-case only ASCII so offsets stay aligned. */
function lowerSameLength(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

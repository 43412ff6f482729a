// XML character escaping for the <citations> block. Decoding knows the five
// XML entities, numeric references and &nbsp; (models trained on HTML emit it);
// anything else is left as written. There is no DTD, so no entity expansion.

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function fromCodePoint(value: number): string | undefined {
  if (!Number.isInteger(value) || value <= 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return undefined;
  return String.fromCodePoint(value);
}

export function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  // Bounded entity names: a stray '&' costs at most a few characters of lookahead.
  return raw.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,6});/g, (whole, name: string) => {
    if (name[0] === '#') {
      const decoded = name[1] === 'x' || name[1] === 'X' ? fromCodePoint(parseInt(name.slice(2), 16)) : fromCodePoint(parseInt(name.slice(1), 10));
      return decoded ?? whole;
    }
    return Object.hasOwn(NAMED, name) ? NAMED[name] : whole;
  });
}

/** For attribute values: quotes escaped, and line breaks kept as references (a parser would turn them into spaces). */
export function escapeAttribute(value: string): string {
  return value.replace(/[&<>"\n\r\t]/g, (c) => ATTRIBUTE_ESCAPES[c]);
}

/**
 * For element content (the quote): `>` too, so that `]]>` cannot appear; and
 * a quote character after a backslash, which the parser would otherwise read
 * as a model's JSON-style `\"`.
 */
export function escapeText(value: string): string {
  return value.replace(/[&<>]/g, (c) => ATTRIBUTE_ESCAPES[c]).replace(/\\(["'])/g, (_, q: string) => (q === '"' ? '\\&quot;' : '\\&apos;'));
}

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;',
};

// Whitespace normalization for quote matching (match type `normalized`): every
// run of whitespace becomes one space and both ends are trimmed. The chunk's
// normalized form keeps, for each of its characters, the offset of that
// character in the original text, so a match found in the normalized text is
// mapped back to offsets into the chunk as it was indexed.

/** JavaScript's \s: ASCII whitespace, NBSP, the Unicode space separators, line/paragraph separators, BOM. */
export function isWhitespace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029
    || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

export interface NormalizedText {
  text: string;
  /** offsets[i]: where normalized character i is in the original (a collapsed run maps to its first character). */
  offsets: Int32Array;
}

/** The normalized string only (for the quote: its offsets are never needed). */
export function collapseWhitespace(original: string): string {
  const parts: string[] = [];
  let pendingSpace = false;
  for (let i = 0; i < original.length; ) {
    if (isWhitespace(original.charCodeAt(i))) {
      pendingSpace = parts.length > 0;
      i += 1;
      continue;
    }
    if (pendingSpace) {
      parts.push(' ');
      pendingSpace = false;
    }
    // A run of ordinary characters goes in as one slice.
    let j = i + 1;
    while (j < original.length && !isWhitespace(original.charCodeAt(j))) j += 1;
    parts.push(original.slice(i, j));
    i = j;
  }
  return parts.join('');
}

export function normalizeWhitespace(original: string): NormalizedText {
  const offsets = new Int32Array(original.length);
  const parts: string[] = [];
  let length = 0;
  let spaceAt = -1;
  for (let i = 0; i < original.length; ) {
    const code = original.charCodeAt(i);
    if (isWhitespace(code)) {
      if (length > 0 && spaceAt < 0) spaceAt = i;
      i += 1;
      continue;
    }
    if (spaceAt >= 0) {
      parts.push(' ');
      offsets[length] = spaceAt;
      length += 1;
      spaceAt = -1;
    }
    let j = i;
    while (j < original.length && !isWhitespace(original.charCodeAt(j))) {
      offsets[length] = j;
      length += 1;
      j += 1;
    }
    parts.push(original.slice(i, j));
    i = j;
  }
  return { text: parts.join(''), offsets: offsets.subarray(0, length) };
}

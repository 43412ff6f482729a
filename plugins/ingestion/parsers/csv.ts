// CSV: rows are grouped so that the header plus a group fits one chunk, and
// the revision text repeats the header line before every group. Each group is
// an atomic segment (a chunk always carries the column names of its rows) and
// its own section ("Rows 2-41"). Records are split with RFC 4180 quoting, so
// a quoted field may hold newlines and delimiters.
import { decodeText } from './plain.ts';
import { ParseError, TextBuilder, type ParsedDocument } from './types.ts';
import type { TokenCounter } from '../chunking/tokenizer.ts';

/** The raw text of each record (quoted newlines kept inside their record). */
function splitRecords(text: string): string[] {
  const records: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') quoted = !quoted;
    else if (char === '\n' && !quoted) {
      records.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (start < text.length) records.push(text.slice(start));
  return records.filter((record) => record.trim() !== '');
}

export function parseCsv(bytes: Uint8Array, counter: TokenCounter, chunkSize: number): ParsedDocument {
  const records = splitRecords(decodeText(bytes));
  if (records.length === 0) throw new ParseError('The CSV file has no rows');
  const [header, ...rows] = records;
  const builder = new TextBuilder();
  const headerTokens = counter.count(header) + 1;
  // Leave room for the header in every chunk; a header larger than a chunk still gets one row per group.
  const budget = Math.max(chunkSize - headerTokens, 1);
  if (rows.length === 0) {
    const { start, end } = builder.append(header);
    builder.segment(start, end, 0, 'Header', 'table', true);
    return builder.finish('csv', 0);
  }
  let index = 0;
  while (index < rows.length) {
    const group: string[] = [];
    let tokens = 0;
    while (index < rows.length) {
      const rowTokens = counter.count(rows[index]) + 1;
      if (group.length > 0 && tokens + rowTokens > budget) break;
      group.push(rows[index++]);
      tokens += rowTokens;
    }
    // Row numbers count the header as row 1, as a spreadsheet does.
    const first = index - group.length + 2;
    const name = group.length === 1 ? `Row ${first}` : `Rows ${first}-${index + 1}`;
    const { start, end } = builder.append(`${header}\n${group.join('\n')}`);
    builder.openSection(name, 1, 0, start);
    builder.segment(start, end, 0, name, 'table', true);
  }
  return builder.finish('csv', 0);
}

// Writes a <citations> block in the one form the platform emits:
// one <citation> per entry with the identifying fields as attributes and the
// quote as a <quote> child, every value escaped, so parseBlock reads back
// exactly what was written (quotes trimmed).
import type { WritableEntry } from '../api.ts';
import { escapeAttribute, escapeText } from './entities.ts';

const ATTRIBUTES = ['ref', 'chunk_id', 'revision_id', 'doc_name', 'page', 'section', 'match_type'] as const;

export function writeBlock(entries: readonly WritableEntry[]): string {
  const lines = ['<citations>'];
  for (const entry of entries) {
    const attributes = ATTRIBUTES
      .filter((name) => entry[name] !== undefined && entry[name] !== null)
      .map((name) => `${name}="${escapeAttribute(String(entry[name]))}"`)
      .join(' ');
    if (entry.quote === undefined || entry.quote === null || entry.quote === '') {
      lines.push(`  <citation ${attributes} />`);
    } else {
      lines.push(`  <citation ${attributes}>`, `    <quote>${escapeText(entry.quote)}</quote>`, '  </citation>');
    }
  }
  lines.push('</citations>');
  return lines.join('\n');
}

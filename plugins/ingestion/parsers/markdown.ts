// Markdown: the source text is the revision text (its markup carries meaning
// and stays searchable), minus embedded <script>/<style> blocks and HTML
// comments. ATX (`## Title`) and Setext (underlined) headings outside code
// fences open sections; a section is named by its heading trail ("Guide > Setup").
import { decodeText } from './plain.ts';
import { ParseError, TextBuilder, type ParsedDocument } from './types.ts';

const DROPPED = /<(script|style)\b[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;

interface Heading {
  level: number;
  title: string;
  /** Offset of the heading's first line. */
  start: number;
}

function headingsOf(text: string): Heading[] {
  const headings: Heading[] = [];
  const lines = text.split('\n');
  let offset = 0;
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      if (!fence) fence = fenceMatch[1][0];
      else if (fenceMatch[1][0] === fence) fence = undefined;
    } else if (!fence) {
      const atx = /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
      const next = lines[i + 1];
      if (atx) headings.push({ level: atx[1].length, title: atx[2].trim(), start: offset });
      else if (next !== undefined && line.trim() !== '' && /^\s{0,3}(=+|-+)\s*$/.test(next) && !/^\s*[-*+]\s/.test(line)) {
        headings.push({ level: next.trim().startsWith('=') ? 1 : 2, title: line.trim(), start: offset });
      }
    }
    offset += line.length + 1;
  }
  return headings;
}

export function parseMarkdown(bytes: Uint8Array): ParsedDocument {
  const source = decodeText(bytes).replace(DROPPED, '');
  if (source.trim() === '') throw new ParseError('The document has no text');
  const builder = new TextBuilder();
  const { start: base, end } = builder.append(source);
  const headings = headingsOf(source);
  const trail: Heading[] = [];
  // Text before the first heading is a segment without a section.
  const firstStart = headings[0]?.start ?? source.length;
  builder.segment(base, base + firstStart, 0, null);
  headings.forEach((heading, index) => {
    while (trail.length && trail.at(-1)!.level >= heading.level) trail.pop();
    trail.push(heading);
    const name = trail.map((h) => h.title).join(' > ');
    const from = base + heading.start;
    const to = index + 1 < headings.length ? base + headings[index + 1].start : end;
    builder.openSection(name, heading.level, 0, from);
    builder.segment(from, to, 0, name);
  });
  return builder.finish('markdown', 0);
}

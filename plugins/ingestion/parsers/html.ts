// HTML (and DOCX, which mammoth turns into HTML): the visible text, block by
// block, with headings opening sections. Scripts, styles, templates and
// navigation (<nav>, role="navigation") are dropped. The tree is walked here:
// htmlparser2's own textContent runs blocks together.
import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import { decodeText } from './plain.ts';
import { ParseError, TextBuilder, type ParsedDocument } from './types.ts';

const DROPPED = new Set(['script', 'style', 'noscript', 'template', 'nav', 'svg', 'canvas', 'iframe', 'object', 'head', 'button', 'select']);
const BLOCKS = new Set([
  'p', 'div', 'section', 'article', 'main', 'aside', 'header', 'footer', 'blockquote', 'pre', 'figure', 'figcaption',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'address', 'details', 'summary', 'form',
  'fieldset', 'hr', 'br', 'caption',
]);
const HEADING = /^h([1-6])$/;

interface Block {
  text: string;
  heading?: number;
}

/** Collects blocks of text; inline elements join their text, block elements break it. */
class BlockCollector {
  readonly blocks: Block[] = [];
  private current = '';

  inline(text: string): void {
    this.current += text;
  }

  flush(heading?: number): void {
    const text = this.current.replace(/[ \t\f\v\u00a0]+/g, ' ').replace(/ *\n */g, '\n').trim();
    this.current = '';
    if (text) this.blocks.push({ text, heading });
  }
}

function isDropped(element: Element): boolean {
  if (DROPPED.has(element.name)) return true;
  const role = element.attribs?.role;
  if (role === 'navigation' || element.attribs?.hidden !== undefined || element.attribs?.['aria-hidden'] === 'true') return true;
  return /display\s*:\s*none/i.test(element.attribs?.style ?? '');
}

function walk(nodes: ChildNode[], out: BlockCollector, preformatted = false): void {
  for (const node of nodes) {
    if (node.type === 'text') {
      out.inline(preformatted ? node.data : node.data.replace(/\s+/g, ' '));
      continue;
    }
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
    const element = node as Element;
    if (isDropped(element)) continue;
    const heading = HEADING.exec(element.name);
    if (heading) {
      out.flush();
      walk(element.children, out);
      out.flush(Number(heading[1]));
      continue;
    }
    if (element.name === 'br') {
      out.inline('\n');
      continue;
    }
    if (element.name === 'td' || element.name === 'th') {
      walk(element.children, out);
      out.inline(' | ');
      continue;
    }
    const block = BLOCKS.has(element.name);
    if (block) out.flush();
    if (element.name === 'li') out.inline('- ');
    walk(element.children, out, preformatted || element.name === 'pre');
    if (block) out.flush();
  }
}

export function htmlToBlocks(html: string): Block[] {
  const document = parseDocument(html, { decodeEntities: true });
  const out = new BlockCollector();
  walk(document.children, out);
  out.flush();
  // Table rows end with the cell separator: drop the trailing one.
  return out.blocks.map((block) => ({ ...block, text: block.text.replace(/\s*\|\s*$/, '') })).filter((block) => block.text);
}

/** Blocks to text, sections by heading (named by their trail), one segment per section. */
export function blocksToDocument(blocks: Block[], parser: string): ParsedDocument {
  if (blocks.length === 0) throw new ParseError('The document has no text');
  const builder = new TextBuilder();
  const trail: { level: number; title: string }[] = [];
  let sectionName: string | null = null;
  let segmentStart = 0;
  for (const block of blocks) {
    if (block.heading) {
      const { start } = builder.append(block.text);
      builder.segment(segmentStart, start, 0, sectionName);
      while (trail.length && trail.at(-1)!.level >= block.heading) trail.pop();
      trail.push({ level: block.heading, title: block.text });
      sectionName = trail.map((h) => h.title).join(' > ');
      builder.openSection(sectionName, block.heading, 0, start);
      segmentStart = start;
    } else {
      builder.append(block.text);
    }
  }
  builder.segment(segmentStart, builder.text.length, 0, sectionName);
  return builder.finish(parser, 0);
}

export function parseHtml(bytes: Uint8Array): ParsedDocument {
  return blocksToDocument(htmlToBlocks(decodeText(bytes)), 'htmlparser2');
}

// Detects a document's content type from its bytes, never from what the client
// claims. Binary formats by their signature (file-type); text formats by
// decoding UTF-8 and checking the shape of the text. Among text formats that
// the bytes are equally consistent with (a Markdown file without markup is
// also plain text), the filename's extension breaks the tie: it may choose
// only a type whose checks the bytes pass.
import YAML from 'yaml';

export const SUPPORTED_CONTENT_TYPES = [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'text/html',
  'text/markdown',
  'text/csv',
  'image/png',
  'image/jpeg',
  'image/tiff',
  'image/webp',
  'image/bmp',
  'application/json',
  'application/yaml',
  'application/x-yaml',
  'text/yaml',
  'text/x-yaml',
  'application/xml',
  'text/xml',
  'text/plain',
] as const;

export type SupportedContentType = (typeof SUPPORTED_CONTENT_TYPES)[number];

const BINARY = new Set<string>([
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'image/png', 'image/jpeg', 'image/tiff', 'image/webp', 'image/bmp',
]);

export const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/tiff', 'image/webp', 'image/bmp']);

/** Formats read as UTF-8 text and chunked by character span, without layout (pages 0). */
export const PLAIN_TEXT_TYPES = new Set([
  'application/json', 'application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml', 'application/xml', 'text/xml', 'text/plain',
]);

export function isSupported(type: string): type is SupportedContentType {
  return (SUPPORTED_CONTENT_TYPES as readonly string[]).includes(type);
}

export type Detection =
  | { ok: true; contentType: SupportedContentType }
  | { ok: false; detected: string | undefined };

const EXTENSION_HINTS: Record<string, SupportedContentType> = {
  md: 'text/markdown', markdown: 'text/markdown', mdown: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html', htm: 'text/html', xhtml: 'text/html',
  json: 'application/json',
  yaml: 'application/yaml', yml: 'application/yaml',
  xml: 'application/xml',
  txt: 'text/plain', text: 'text/plain', log: 'text/plain',
};

function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    // Control characters other than whitespace mean binary, not text.
    if (/[\u0000-\u0008\u000E-\u001F]/.test(text.slice(0, 65536))) return undefined;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    return undefined;
  }
}

function looksLikeJson(text: string): boolean {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

/**
 * The text after leading white space and comments. A loop, not the former
 * /^\s*(<!--[\s\S]*?-->\s*)*<!doctype html/: a lazy comment body may also
 * span several comments, so that pattern backtracked exponentially on a run of
 * "<!---->" in an uploaded document.
 */
function afterComments(head: string): string {
  let at = 0;
  for (;;) {
    while (at < head.length && /\s/.test(head[at])) at++;
    if (!head.startsWith('<!--', at)) return head.slice(at);
    const end = head.indexOf('-->', at + 4);
    if (end < 0) return head.slice(at);
    at = end + 3;
  }
}

function looksLikeHtml(head: string): boolean {
  return /^<!doctype html/i.test(afterComments(head))
    || /^\s*<html[\s>]/i.test(head)
    || (/^\s*</.test(head) && /<(head|body|div|p|h[1-6]|table|ul|section|article)[\s>]/i.test(head) && /<\/(p|div|body|h[1-6]|li|td)>/i.test(head));
}

function looksLikeXml(text: string): boolean {
  const trimmed = text.trimStart();
  if (/^<\?xml[\s?]/.test(trimmed)) return true;
  // A root element whose closing tag ends the text.
  const open = /^<([A-Za-z_][\w.:-]*)[\s>/]/.exec(trimmed);
  return Boolean(open) && new RegExp(`</${open![1].replace(/[.]/g, '\\.')}>\\s*$`).test(trimmed);
}

/** At least two columns, and the same number of delimiters on (nearly) every line of a sample. */
function looksLikeCsv(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '').slice(0, 50);
  if (lines.length < 2) return false;
  for (const delimiter of [',', ';', '\t']) {
    const counts = lines.map((line) => countOutsideQuotes(line, delimiter));
    if (counts[0] < 1) continue;
    const agreeing = counts.filter((count) => count === counts[0]).length;
    if (agreeing / counts.length >= 0.9) return true;
  }
  return false;
}

function countOutsideQuotes(line: string, delimiter: string): number {
  let count = 0;
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (char === delimiter && !quoted) count++;
  }
  return count;
}

function looksLikeMarkdown(text: string): boolean {
  const sample = text.slice(0, 20000);
  let score = 0;
  if (/^#{1,6}\s+\S/m.test(sample)) score += 2;
  if (/^```/m.test(sample)) score += 2;
  if (/\[[^\]\n]+\]\([^)\s]+\)/.test(sample)) score += 1;
  if (/^\s*[-*+]\s+\S/m.test(sample)) score += 1;
  if (/^\s*\d+\.\s+\S/m.test(sample)) score += 1;
  if (/\*\*[^*\n]+\*\*/.test(sample)) score += 1;
  if (/^\|.*\|\s*$/m.test(sample) && /^\|?\s*:?-{3,}/m.test(sample)) score += 2;
  return score >= 2;
}

/** A mapping or sequence whose lines look like `key: value` / `- item` (not prose that happens to parse). */
function looksLikeYaml(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
  if (lines.length === 0) return false;
  const structured = lines.filter((line) => /^\s*(- |[\w"'.-][^:]*:(\s|$))/.test(line) || /^\s+\S/.test(line) || line.trim() === '---');
  if (structured.length / lines.length < 0.8) return false;
  try {
    const parsed = YAML.parse(text);
    return parsed !== null && typeof parsed === 'object';
  } catch {
    return false;
  }
}

const TEXT_CHECKS: [SupportedContentType, (text: string) => boolean][] = [
  ['application/json', looksLikeJson],
  ['text/html', (text) => looksLikeHtml(text.slice(0, 4096))],
  ['application/xml', looksLikeXml],
  ['text/markdown', looksLikeMarkdown],
  ['text/csv', looksLikeCsv],
  ['application/yaml', looksLikeYaml],
];

function consistentWith(type: SupportedContentType, text: string): boolean {
  if (type === 'text/plain') return true;
  if (type === 'text/markdown') return true; // any text is valid Markdown
  const check = TEXT_CHECKS.find(([candidate]) => candidate === type);
  return check ? check[1](text) : false;
}

export async function detectContentType(bytes: Buffer, filename?: string): Promise<Detection> {
  const { fileTypeFromBuffer } = await import('file-type');
  const sniffed = await fileTypeFromBuffer(bytes);
  if (sniffed && BINARY.has(sniffed.mime)) return { ok: true, contentType: sniffed.mime as SupportedContentType };
  const text = sniffed && sniffed.mime !== 'application/xml' ? undefined : decodeUtf8(bytes);
  if (text === undefined) return { ok: false, detected: sniffed?.mime ?? 'application/octet-stream' };

  const extension = filename?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  const hinted = extension ? EXTENSION_HINTS[extension] : undefined;
  if (hinted && consistentWith(hinted, text)) return { ok: true, contentType: hinted };
  for (const [type, check] of TEXT_CHECKS) if (check(text)) return { ok: true, contentType: type };
  return { ok: true, contentType: 'text/plain' };
}

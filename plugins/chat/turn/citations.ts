// The <citations> block of a reply: resolved and verified through the
// citations plugin when it is loaded (each entry's match_type filled in and
// the block rewritten with it); without the plugin, the entries are read and
// written back here (the same attributes), unverified.
import type { TenantTransaction } from 'agent-platform/sdk';
import type { CitationsApi, CitationEntry, WritableEntry } from '../../citations/api.ts';

const ATTR = /([a-z_]+)\s*=\s*"([^"]*)"/g;
const ENTRY = /<citation\b([^>]*?)\/?>/g;

const unescape = (value: string) =>
  value.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
const escape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Reads `<citation ref=".." chunk_id=".." …/>` entries (the fallback when citations is absent). */
export function readEntries(block: string): CitationEntry[] {
  const entries: CitationEntry[] = [];
  for (const match of block.matchAll(ENTRY)) {
    const attrs: Record<string, string> = {};
    for (const [, key, value] of match[1].matchAll(ATTR)) attrs[key] = unescape(value);
    if (!attrs.chunk_id || !attrs.revision_id) continue;
    const entry: CitationEntry = { ref: attrs.ref ?? String(entries.length + 1), chunk_id: attrs.chunk_id, revision_id: attrs.revision_id, doc_name: attrs.doc_name ?? '' };
    if (attrs.page && Number.isInteger(Number(attrs.page))) entry.page = Number(attrs.page);
    if (attrs.section) entry.section = attrs.section;
    if (attrs.quote) entry.quote = attrs.quote;
    entries.push(entry);
  }
  return entries;
}

/** Writes a block (the fallback writer; the citations plugin's writeBlock is used when loaded). */
export function writeEntries(entries: readonly WritableEntry[]): string {
  const lines = entries.map((entry) => {
    const attrs: [string, unknown][] = [
      ['ref', entry.ref], ['chunk_id', entry.chunk_id], ['revision_id', entry.revision_id], ['doc_name', entry.doc_name],
      ['page', entry.page], ['section', entry.section], ['quote', entry.quote], ['match_type', entry.match_type],
    ];
    const written = attrs.filter(([, value]) => value !== undefined && value !== null && value !== '')
      .map(([key, value]) => `${key}="${escape(String(value))}"`).join(' ');
    return `  <citation ${written}/>`;
  });
  return `<citations>\n${lines.join('\n')}\n</citations>`;
}

export interface ResolvedCitations {
  /** The block to store in the message (match types filled in when verified). */
  block: string;
  /** What the `citations` frame carries. */
  entries: Record<string, unknown>[];
  verified: boolean;
  /** Records the stored answer as the message the citations were made in (when the citations plugin made them). */
  assignMessage?: (trx: TenantTransaction, messageId: number) => Promise<void>;
}

export async function resolveCitations(
  citations: CitationsApi | undefined, tenantId: string, blocks: string[],
  context: { type: string; id: string; client_id: number },
): Promise<ResolvedCitations | undefined> {
  if (blocks.length === 0) return undefined;
  if (citations) {
    // A reply carries one block; several are merged into one.
    const merged = blocks.length === 1 ? blocks[0] : writeEntries(blocks.flatMap((block) => citations.parseBlock(block).entries));
    const { entries } = await citations.resolveReply(tenantId, merged, context);
    return {
      block: citations.writeBlock(entries),
      entries: entries as unknown as Record<string, unknown>[],
      verified: true,
      assignMessage: (trx, messageId) => citations.assignMessage(trx, entries.map((entry) => entry.citation_id), messageId),
    };
  }
  const entries = blocks.flatMap(readEntries);
  if (entries.length === 0) return undefined;
  return {
    block: writeEntries(entries),
    entries: entries.map((entry) => ({ ...entry, match_type: null, verification_status: 'unverified' })),
    verified: false,
  };
}

// The answer when no model is configured (LLM_BASE_URL unset): an extractive
// reply. It searches the tenant's documents (the ingestion plugin's API, or a
// search_documents function registered by someone else), quotes from each of
// the best chunks the sentences that answer the question (offline/passage.ts)
// under the heading they come from, and cites them in a <citations> block;
// with nothing to quote it says so. It never invents text: every quote is a
// verbatim span of a chunk, shown as a blockquote of plain lines.
import type { IngestionApi, SearchHit } from '../../ingestion/api.ts';
import type { CitationsApi } from '../../citations/api.ts';
import type { CoreServices, FunctionCallContext } from 'agent-platform/sdk';
import { writeEntries } from '../turn/citations.ts';
import { bestPassage, blockquoteOf, literal, termsOf } from './passage.ts';

export const OFFLINE_LABEL = 'Extractive answer (no language model is configured): the most relevant passages from your documents.';
export const NO_SOURCES = 'No language model is configured and none of your documents matches this question, so there is no answer to quote.';
const TOP_K = 3;

export interface OfflineDeps {
  core: Pick<CoreServices, 'withTenant' | 'functions'>;
  ingestion: IngestionApi | undefined;
  citations: CitationsApi | undefined;
}

async function search(deps: OfflineDeps, question: string, context: FunctionCallContext): Promise<{ hits: SearchHit[]; viaFunction: boolean }> {
  if (deps.ingestion) {
    // The session's own private collection (embed uploads) is searched too: scope `<type>:<id>` of the context.
    const scope = context.executionContext ? `${context.executionContext.type}:${context.executionContext.id}` : undefined;
    const hits = await deps.core.withTenant(context.tenantId, (trx) => deps.ingestion!.search(trx, { query: question, top_k: TOP_K, scope }));
    return { hits, viaFunction: false };
  }
  const known = (await deps.core.functions.list(context.tenantId)).some((f) => f.name === 'search_documents');
  if (!known) return { hits: [], viaFunction: false };
  const result = await deps.core.functions.call('search_documents', { query: question, top_k: TOP_K }, context) as { results?: SearchHit[] } | SearchHit[];
  return { hits: Array.isArray(result) ? result : (result?.results ?? []), viaFunction: true };
}

/** The reply's full text (with its <citations> block) and how many sources it quotes. */
export async function offlineAnswer(deps: OfflineDeps, question: string, context: FunctionCallContext & { clientId: number }): Promise<{ text: string; sources: number }> {
  const { hits, viaFunction } = await search(deps, question, context);
  const terms = termsOf(question);
  // Each hit's best passage; the chunks quoting the most of the question's
  // terms go first (search order among equals), and when some quote any, those
  // quoting under half as many as the best are left out.
  const found = hits.filter((hit) => hit.text && hit.text.trim() !== '').slice(0, TOP_K)
    .map((hit, rank) => ({ hit, rank, passage: bestPassage(hit.text, terms) }))
    .filter((entry) => entry.passage !== undefined)
    .sort((a, b) => b.passage!.score - a.passage!.score || a.rank - b.rank);
  const topScore = found[0]?.passage!.score ?? 0;
  const seen = new Set<string>();
  const usable = found.filter(({ passage }) => {
    // Overlapping chunks can hold the same sentences: each is quoted once.
    const key = passage!.quote.replace(/\s+/g, ' ');
    if (seen.has(key) || passage!.score * 2 < topScore) return false;
    seen.add(key);
    return true;
  });
  if (usable.length === 0) return { text: NO_SOURCES, sources: 0 };
  if (!viaFunction && deps.citations) {
    // Chunks shown without a platform function call: record them for provenance.
    await deps.citations.recordShown(context.tenantId, { ...context.executionContext!, client_id: context.clientId },
      usable.map(({ hit }) => ({ chunk_id: hit.chunk_id, revision_id: hit.revision_id })));
  }
  const entries = usable.map(({ hit, passage }, i) => ({
    ref: String(i + 1), chunk_id: hit.chunk_id, revision_id: hit.revision_id, doc_name: hit.doc_name,
    ...(hit.page > 0 ? { page: hit.page } : {}), ...(hit.section ? { section: hit.section } : {}), quote: passage!.quote,
  }));
  const quoted = usable.map(({ hit, passage }, i) => {
    const section = hit.section ?? passage!.heading;
    const where = [section ? `*${literal(section)}* in *${literal(hit.doc_name)}*` : `*${literal(hit.doc_name)}*`, hit.page > 0 ? `p. ${hit.page}` : '']
      .filter(Boolean).join(', ');
    return `From ${where} [${i + 1}]:\n\n${blockquoteOf(passage!.quote)}`;
  });
  const block = deps.citations ? deps.citations.writeBlock(entries) : writeEntries(entries);
  return { text: `${OFFLINE_LABEL}\n\n${quoted.join('\n\n')}\n\n${block}`, sources: usable.length };
}

// Vision descriptions of drawing pages (INGESTION_VLM_ENABLED): each drawing
// page image (up to INGESTION_MAX_DRAWING_PAGES) goes to an OpenAI-compatible
// chat completions endpoint (INGESTION_VLM_BASE_URL, model INGESTION_VLM_MODEL,
// max_tokens INGESTION_VLM_MAX_TOKENS). The description is appended to the
// revision text (so chunk offsets stay offsets into it) under a section
// "Page N (drawing)" and chunked as `vision` chunks, searchable like the rest.
import { chunkDocument } from '../chunking/chunker.ts';
import { languageOf } from '../search/language.ts';
import { chunksStore, revisionsStore } from '../store/revisions.ts';
import { pageImagesStore } from '../store/page-images.ts';
import type { DocumentRow } from '../store/documents.ts';
import type { SectionInfo } from '../store/tables.ts';
import type { StageDeps } from './stages.ts';
import type { StagePayload } from '../tasks/payloads.ts';

const PROMPT = 'Describe this page of a technical document for search: what the drawing shows, its labels, '
  + 'dimensions, parts and any text in it. Answer in the language of the text on the page.';

async function describe(deps: StageDeps, png: Buffer, signal: AbortSignal): Promise<string> {
  const { vlm } = deps.settings;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (vlm.apiKey) headers.authorization = `Bearer ${vlm.apiKey}`;
  const response = await fetch(`${vlm.baseUrl}/chat/completions`, {
    method: 'POST', headers, signal,
    body: JSON.stringify({
      model: vlm.model,
      max_tokens: vlm.maxTokens,
      messages: [{
        role: 'user',
        content: [
          { type: 'text', text: PROMPT },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
        ],
      }],
    }),
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`vision model answered ${response.status}`);
  }
  const body = await response.json() as { choices?: { message?: { content?: unknown } }[] };
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || content.trim() === '') throw new Error('vision model returned no description');
  return content.trim();
}

/** Describes the revision's drawing pages; returns how many were described. */
export async function describeDrawings(deps: StageDeps, job: StagePayload, document: DocumentRow, signal: AbortSignal): Promise<number> {
  const revisionId = document.run_revision_id!;
  const drawings = await deps.core.withTenant(job.tenant_id, (trx) => pageImagesStore.drawingsOf(trx, revisionId, deps.settings.vlm.maxDrawingPages));
  if (drawings.length === 0) return 0;
  const descriptions: { page: number; text: string }[] = [];
  for (const drawing of drawings) descriptions.push({ page: drawing.page, text: await describe(deps, drawing.png, signal) });
  const counter = await deps.counter();
  await deps.core.withTenant(job.tenant_id, async (trx) => {
    const revision = await revisionsStore.get(trx, revisionId);
    if (!revision || revision.status !== 'building') return;
    let text = revision.text ?? '';
    const sections: SectionInfo[] = [...revision.sections];
    const segments = [];
    for (const { page, text: description } of descriptions) {
      const title = `Page ${page} (drawing)`;
      text += text.length ? '\n\n' : '';
      const start = text.length;
      text += description;
      sections.push({ title, level: 1, page, char_start: start, char_end: text.length });
      segments.push({ start, end: text.length, page, section: title, kind: 'vision' as const });
    }
    const chunks = chunkDocument(text, segments, counter, { size: deps.settings.chunkSize, overlap: deps.settings.chunkOverlap });
    const first = (await chunksStore.maxOrdinal(trx, revisionId)) + 1;
    await revisionsStore.appendText(trx, revisionId, text, sections);
    await chunksStore.insertMany(trx, { tenant_id: job.tenant_id, revision_id: revisionId, document_id: document.id, collection_id: document.collection_id },
      chunks.map((chunk, i) => ({
        ordinal: first + i, kind: 'vision', text: chunk.text, page: chunk.page, section: chunk.section,
        char_start: chunk.start, char_end: chunk.end, token_count: chunk.tokens,
        ts_config: languageOf(chunk.text, (revision.language as 'english' | 'portuguese' | null) ?? undefined),
      })));
  });
  return descriptions.length;
}

// The enrich stage: vision descriptions of drawing pages (INGESTION_VLM_*),
// then embeddings of every chunk of the revision, in batches of
// INGESTION_EMBEDDING_BATCH under INGESTION_EMBED_TIMEOUT, then (page-image
// retrieval, INGESTION_VISION_RETRIEVAL_ENABLED) embeddings of the revision's
// page images through the image-embedding endpoint, under its own
// INGESTION_EMBED_TIMEOUT. Resumable (a retried
// job embeds only what is left) and never fatal: a failure is recorded in the
// revision's `enrichment` and the document still becomes ready, searchable by
// keyword.
import { chunksStore } from '../store/revisions.ts';
import { documentsStore, type DocumentRow } from '../store/documents.ts';
import { quotaStore } from '../store/quota.ts';
import { pageImagesStore } from '../store/page-images.ts';
import { withTimeout } from './timeout.ts';
import { describeDrawings } from './vision.ts';
import type { StageDeps } from './stages.ts';
import type { StagePayload } from '../tasks/payloads.ts';

export interface EnrichmentReport {
  embeddings: { status: 'skipped' | 'done' | 'failed'; model?: string; embedded?: number; error?: string };
  vision: { status: 'skipped' | 'done' | 'failed'; described?: number; error?: string };
  /** Present only with page-image retrieval on. */
  page_images?: { status: 'done' | 'failed'; model: string; embedded: number; error?: string };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function embedChunks(deps: StageDeps, job: StagePayload, revisionId: string, signal: AbortSignal): Promise<EnrichmentReport['embeddings']> {
  const embedder = deps.embedder;
  if (!embedder) return { status: 'skipped' };
  let embedded = 0;
  try {
    await withTimeout(deps.settings.embedTimeoutSeconds, 'embedding', async (inner) => {
      const total = await deps.core.withTenant(job.tenant_id, (trx) => chunksStore.countOfRevision(trx, revisionId));
      for (;;) {
        const batch = await deps.core.withTenant(job.tenant_id, (trx) => chunksStore.unembedded(trx, revisionId, deps.settings.embedding.batch));
        if (batch.length === 0) return;
        const vectors = await embedder.embed(batch.map((chunk) => chunk.text), inner);
        embedded += batch.length;
        await deps.core.withTenant(job.tenant_id, async (trx) => {
          await chunksStore.setEmbeddings(trx, batch.map((chunk, i) => ({ id: chunk.id, embedding: vectors[i] })), embedder.model);
          const done = total - (await chunksStore.countUnembedded(trx, revisionId));
          await documentsStore.progress(trx, job.document_id, job.run_id, { progress_pct: 60 + Math.floor((30 * done) / Math.max(total, 1)) });
          await quotaStore.refresh(trx, job.document_id, job.run_id);
        });
      }
    }, signal);
    return { status: 'done', model: embedder.model, embedded };
  } catch (err) {
    signal.throwIfAborted();
    deps.core.logger.warn({ document_id: job.document_id, err: messageOf(err) }, 'ingestion: embeddings failed; the document stays keyword-searchable');
    return { status: 'failed', model: embedder.model, embedded, error: messageOf(err) };
  }
}

/** Page images as PNG data URLs to the image-embedding endpoint (a CLIP-style model: queries are embedded by the same endpoint as text). */
async function embedPageImages(deps: StageDeps, job: StagePayload, revisionId: string, signal: AbortSignal): Promise<NonNullable<EnrichmentReport['page_images']>> {
  const embedder = deps.imageEmbedder!;
  let embedded = 0;
  try {
    await withTimeout(deps.settings.embedTimeoutSeconds, 'page-image embedding', async (inner) => {
      for (;;) {
        const batch = await deps.core.withTenant(job.tenant_id, (trx) => pageImagesStore.unembedded(trx, revisionId, deps.settings.embedding.batch));
        if (batch.length === 0) return;
        const vectors = await embedder.embed(batch.map((image) => `data:image/png;base64,${Buffer.from(image.png).toString('base64')}`), inner);
        embedded += batch.length;
        await deps.core.withTenant(job.tenant_id, async (trx) => {
          await pageImagesStore.setEmbeddings(trx, revisionId, batch.map((image, i) => ({ page: image.page, embedding: vectors[i] })), embedder.model);
          await quotaStore.refresh(trx, job.document_id, job.run_id);
        });
      }
    }, signal);
    return { status: 'done', model: embedder.model, embedded };
  } catch (err) {
    signal.throwIfAborted();
    deps.core.logger.warn({ document_id: job.document_id, err: messageOf(err) }, 'ingestion: page-image embeddings failed; text search is unaffected');
    return { status: 'failed', model: embedder.model, embedded, error: messageOf(err) };
  }
}

export async function enrichRevision(deps: StageDeps, job: StagePayload, document: DocumentRow, signal: AbortSignal): Promise<EnrichmentReport> {
  const revisionId = document.run_revision_id!;
  let vision: EnrichmentReport['vision'] = { status: 'skipped' };
  if (deps.settings.vlm.enabled && deps.settings.vlm.baseUrl) {
    try {
      const described = await describeDrawings(deps, job, document, signal);
      vision = { status: 'done', described };
    } catch (err) {
      signal.throwIfAborted();
      vision = { status: 'failed', error: messageOf(err) };
    }
  }
  const embeddings = await embedChunks(deps, job, revisionId, signal);
  const report: EnrichmentReport = { embeddings, vision };
  if (deps.imageEmbedder) report.page_images = await embedPageImages(deps, job, revisionId, signal);
  return report;
}

// The stages of an ingestion run, run by `ingestion.stage` jobs (two per run,
// see runStage):
//   validate → create_revision → parse_and_chunk → enrich → finalize (→ done).
// Every stage checks that its run is still the document's run (a reingest,
// retry or delete supersedes it), does its work, and enqueues the next stage
// in the transaction that records its result. Slow work (parsing, embedding)
// happens outside transactions.
import type { TenantTransaction } from 'agent-platform/sdk';
import { documentsStore, blobsStore, type DocumentRow } from '../store/documents.ts';
import { revisionsStore, chunksStore } from '../store/revisions.ts';
import { pageImagesStore } from '../store/page-images.ts';
import { quotaStore } from '../store/quota.ts';
import { isSupported } from '../parsers/content-type.ts';
import { ParseError } from '../parsers/types.ts';
import type { TokenCounter } from '../chunking/tokenizer.ts';
import type { Embedder } from '../embeddings/embedder.ts';
import { parseAndChunkInPool, parseOptionsOf } from './parse-step.ts';
import type { ParserPool } from './parser-pool.ts';
import { enrichRevision } from './enrich.ts';
import { EVENT_SOURCE } from '../event-types.ts';
import { enqueueStage, failRun, kickReconciler, type RunDeps } from './runs.ts';
import type { StagePayload } from '../tasks/payloads.ts';

export interface StageDeps extends RunDeps {
  counter: () => Promise<TokenCounter>;
  embedder: Embedder | undefined;
  /** The image-embedding endpoint of page-image retrieval (INGESTION_VISION_RETRIEVAL_ENABLED), when on. */
  imageEmbedder?: Embedder;
  /** Parser threads: a stuck or runaway parser is terminated, not the process. */
  parsers: ParserPool;
}

const PROGRESS = { validate: 5, create_revision: 10, parse_and_chunk: 20, parsed: 60, enrich: 60, enriched: 90, finalize: 95 } as const;

/** The document, locked, when the job's run is still its run; undefined otherwise (the job does nothing). */
async function current(trx: TenantTransaction, job: StagePayload): Promise<DocumentRow | undefined> {
  const document = await documentsStore.lock(trx, job.document_id);
  if (!document || document.deleted_at || document.run_id !== job.run_id) return undefined;
  return document;
}

type Next = StagePayload['stage'] | undefined;

async function validate(deps: StageDeps, job: StagePayload): Promise<Next> {
  return deps.core.withTenant(job.tenant_id, async (trx): Promise<Next> => {
    const document = await current(trx, job);
    if (!document) return undefined;
    await documentsStore.progress(trx, document.id, job.run_id, { status: 'ingesting', stage: 'validate', progress_pct: PROGRESS.validate, started: true });
    const problem = document.size_bytes > deps.settings.maxDocSize
      ? `Document too large (${document.size_bytes} bytes, max ${deps.settings.maxDocSize})`
      : !isSupported(document.content_type) ? `Unsupported content type ${document.content_type}`
        : !(await blobsStore.exists(trx, document.content_hash)) ? 'The document\'s bytes are missing' : undefined;
    if (problem) {
      await failRun(deps, trx, document, 'validate', problem);
      return undefined;
    }
    return 'create_revision';
  });
}

async function createRevision(deps: StageDeps, job: StagePayload): Promise<Next> {
  return deps.core.withTenant(job.tenant_id, async (trx): Promise<Next> => {
    const document = await current(trx, job);
    if (!document) return undefined;
    // A retried job finds the revision its first attempt created.
    const revisionId = document.run_revision_id ?? (await revisionsStore.create(trx, {
      tenant_id: job.tenant_id, document_id: document.id, content_hash: document.content_hash,
      content_type: document.content_type, size_bytes: document.size_bytes,
    })).id;
    await documentsStore.progress(trx, document.id, job.run_id, { stage: 'create_revision', progress_pct: PROGRESS.create_revision, runRevisionId: revisionId });
    return 'parse_and_chunk';
  });
}

/** Parsing and chunking run in a parser child process, under their own timeouts (the pool kills a stuck one). */
async function parseAndChunkStage(deps: StageDeps, job: StagePayload): Promise<void> {
  const loaded = await deps.core.withTenant(job.tenant_id, async (trx) => {
    const document = await current(trx, job);
    if (!document?.run_revision_id) return undefined;
    await documentsStore.progress(trx, document.id, job.run_id, { stage: 'parse_and_chunk', progress_pct: PROGRESS.parse_and_chunk });
    const bytes = await blobsStore.get(trx, document.content_hash);
    return bytes ? { document, bytes } : undefined;
  });
  if (!loaded) return;
  const { document, bytes } = loaded;
  const options = parseOptionsOf(deps.settings, document.content_type, document.filename);
  const { parsed, chunks, language } = await parseAndChunkInPool(deps.parsers, bytes, options, deps.settings);
  if (chunks.length === 0) throw new ParseError('The document has no text to index');
  await deps.core.withTenant(job.tenant_id, async (trx) => {
    const locked = await current(trx, job);
    if (!locked?.run_revision_id) return;
    const revisionId = locked.run_revision_id;
    const base = { tenant_id: job.tenant_id, revision_id: revisionId, document_id: locked.id, collection_id: locked.collection_id };
    await chunksStore.deleteOfRevision(trx, revisionId);
    await revisionsStore.saveParsed(trx, revisionId, {
      parser: parsed.parser, language, text: parsed.text, pages: parsed.pages, sections: parsed.sections,
      page_count: parsed.pageCount, warnings: parsed.warnings,
    });
    await chunksStore.insertMany(trx, base, chunks.map((chunk, ordinal) => ({
      ordinal, kind: chunk.kind, text: chunk.text, page: chunk.page, section: chunk.section,
      char_start: chunk.start, char_end: chunk.end, token_count: chunk.tokens, ts_config: chunk.tsConfig,
    })));
    await pageImagesStore.replaceOfRevision(trx, base, parsed.images);
    await documentsStore.progress(trx, locked.id, job.run_id, { progress_pct: PROGRESS.parsed });
    await quotaStore.refresh(trx, locked.id, job.run_id);
    await enqueueStage(deps, trx, { ...job, stage: 'enrich' });
  });
}

async function enrich(deps: StageDeps, job: StagePayload, signal: AbortSignal): Promise<Next> {
  const document = await deps.core.withTenant(job.tenant_id, async (trx) => {
    const found = await current(trx, job);
    if (!found?.run_revision_id) return undefined;
    await documentsStore.progress(trx, found.id, job.run_id, { stage: 'enrich', progress_pct: PROGRESS.enrich });
    return found;
  });
  if (!document?.run_revision_id) return undefined;
  // Enrichment never fails the run: what fails is recorded on the revision.
  const enrichment = await enrichRevision(deps, job, document, signal);
  return deps.core.withTenant(job.tenant_id, async (trx): Promise<Next> => {
    const locked = await current(trx, job);
    if (!locked?.run_revision_id) return undefined;
    await revisionsStore.setEnrichment(trx, locked.run_revision_id, enrichment);
    await documentsStore.progress(trx, locked.id, job.run_id, { progress_pct: PROGRESS.enriched });
    return 'finalize';
  });
}

async function finalize(deps: StageDeps, job: StagePayload): Promise<void> {
  await deps.core.withTenant(job.tenant_id, async (trx) => {
    const document = await current(trx, job);
    if (!document?.run_revision_id) return;
    const revisionId = document.run_revision_id;
    await documentsStore.progress(trx, document.id, job.run_id, { stage: 'finalize', progress_pct: PROGRESS.finalize });
    const revision = await revisionsStore.get(trx, revisionId);
    const chunkCount = await chunksStore.countOfRevision(trx, revisionId);
    await revisionsStore.finish(trx, revisionId, 'ready');
    await chunksStore.makeCurrent(trx, document.id, revisionId);
    await chunksStore.addTerms(trx, job.tenant_id, revisionId);
    const pageCount = revision?.page_count ?? null;
    await documentsStore.complete(trx, document.id, { revisionId, chunkCount, pageCount });
    await quotaStore.release(trx, document.id);
    await kickReconciler(deps, trx, job.tenant_id);
    await deps.core.events.emit(trx, job.tenant_id, {
      type: 'document.ingested',
      source: EVENT_SOURCE,
      data: {
        document_id: document.id, collection_id: document.collection_id, content_type: document.content_type,
        page_count: pageCount, filename: document.filename, revision_id: revisionId,
        revision_number: revision?.revision_number ?? null, chunk_count: chunkCount,
      },
    });
  });
}

/**
 * Runs the job's stage and the light stages that follow it in the same job:
 * validate → create_revision → parse_and_chunk, then (a new job, so that
 * embedding has its own worker slot and timeout) enrich → finalize. Each stage
 * commits on its own; the job completes only after its last stage committed
 * (and enqueued the next job in that transaction), so a crash in between
 * retries the job, whose stages find their work done (run and revision ids).
 * `job.stage` is moved along, so a failure names the stage it happened in.
 */
export async function runStage(deps: StageDeps, job: StagePayload, signal: AbortSignal): Promise<void> {
  let next: Next = job.stage;
  while (next) {
    job.stage = next;
    switch (next) {
      case 'validate': next = await validate(deps, job); break;
      case 'create_revision': next = await createRevision(deps, job); break;
      case 'parse_and_chunk': await parseAndChunkStage(deps, job); next = undefined; break;
      case 'enrich': next = await enrich(deps, job, signal); break;
      case 'finalize': await finalize(deps, job); next = undefined; break;
    }
  }
}

/** Fails the run when the job's run is still current (fatal error, or the last attempt of an unexpected one). */
export async function failStage(deps: StageDeps, job: StagePayload, message: string): Promise<void> {
  await deps.core.withTenant(job.tenant_id, async (trx) => {
    const document = await current(trx, job);
    if (document) await failRun(deps, trx, document, job.stage, message);
  });
}

// Re-embedding after a model change: the current chunks of a tenant that the
// embedder in use did not embed (another model's vectors, or none) are
// embedded again, a batch (INGESTION_EMBEDDING_BATCH) at a time, each batch
// in its own transaction. Resumable: a pass that stops (a restart, a failed
// batch) leaves what is left for the next. Until a chunk is re-embedded it is
// found by keyword only: a query is compared with vectors of its own model.
import type { CoreServices } from 'agent-platform/sdk';
import type { Embedder } from '../embeddings/embedder.ts';
import { chunksStore } from '../store/revisions.ts';
import { reembedStore } from '../store/reembed.ts';

export interface ReembedDeps {
  core: CoreServices;
  embedder: Embedder;
  batch: number;
}

/** Re-embeds the tenant's stale chunks; how many it embedded. */
export async function reembedTenant(deps: ReembedDeps, tenantId: string, signal?: AbortSignal): Promise<number> {
  let embedded = 0;
  for (;;) {
    signal?.throwIfAborted();
    const batch = await deps.core.withTenant(tenantId, (trx) => reembedStore.stale(trx, deps.embedder.model, deps.batch));
    if (batch.length === 0) return embedded;
    const vectors = await deps.embedder.embed(batch.map((chunk) => chunk.text), signal);
    await deps.core.withTenant(tenantId, (trx) =>
      chunksStore.setEmbeddings(trx, batch.map((chunk, i) => ({ id: chunk.id, embedding: vectors[i] })), deps.embedder.model));
    embedded += batch.length;
  }
}

/** Where a tenant's re-embedding stands: current chunks embedded by the model, and those left. */
export function reembedCounts(core: CoreServices, tenantId: string, model: string) {
  return core.withTenant(tenantId, (trx) => reembedStore.counts(trx, model));
}

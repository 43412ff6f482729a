// `ingestion.reembed`: after a boot whose embedder is a pulled model, every
// tenant's current chunks not embedded by it are re-embedded
// (pipeline/reembed.ts). A job for a model no longer in use does nothing; a
// tenant whose pass fails is logged and left for the job's retry (resumable).
import type { LongTaskOptions } from 'agent-platform/sdk';
import type { Embedder } from '../embeddings/embedder.ts';
import { reembedTenant, type ReembedDeps } from '../pipeline/reembed.ts';
import type { RunDeps } from '../pipeline/runs.ts';
import type { ReembedPayload } from './payloads.ts';

export const reembedTaskOptions: LongTaskOptions = { retryLimit: 3, retryDelaySeconds: 60, expireInSeconds: 4 * 3600 };

export function reembedTask(deps: RunDeps & { embedder: Embedder | undefined }) {
  return async (payload: ReembedPayload, context: { signal: AbortSignal }): Promise<void> => {
    const { embedder } = deps;
    if (!embedder || embedder.model !== payload.model) return;
    const reembed: ReembedDeps = { core: deps.core, embedder, batch: deps.settings.embedding.batch };
    let failed = 0;
    await deps.core.tenants.each(async (tenantId) => {
      try {
        const embedded = await reembedTenant(reembed, tenantId, context.signal);
        if (embedded > 0) deps.core.logger.info({ tenantId, model: embedder.model, embedded }, 'ingestion: chunks re-embedded');
      } catch (err) {
        context.signal.throwIfAborted();
        failed++;
        deps.core.logger.error({ tenantId, model: embedder.model, err: (err as Error).message }, 'ingestion: re-embedding failed');
      }
    });
    if (failed > 0) throw new Error(`re-embedding with ${embedder.model} failed for ${failed} tenant(s)`);
  };
}

// Artifacts of transform runs: compiled SQL, logs,
// output summary. /content answers JSON; /download the file itself.
import { isUuid, notFound } from 'agent-platform/sdk';
import type { TransformsContext } from './context.ts';
import { artifactsStore } from '../store/artifacts.ts';

export function createArtifactService(context: TransformsContext) {
  const { core } = context;
  const missing = (id: string) => notFound(`Artifact ${id} does not exist`, 'ARTIFACT_NOT_FOUND');
  return {
    list: (tenantId: string, filter: { transformId?: string; runId?: string; kind?: string; limit: number; offset: number }) =>
      core.withTenant(tenantId, async (trx) => ({ items: await artifactsStore.list(trx, filter), limit: filter.limit, offset: filter.offset })),

    get: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      const row = isUuid(id) ? await artifactsStore.find(trx, id) : undefined;
      if (!row) throw missing(id);
      return row;
    }),

    /** The artifact with its content (JSON artifacts parsed). */
    content: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      const row = isUuid(id) ? await artifactsStore.content(trx, id) : undefined;
      if (!row) throw missing(id);
      return row;
    }),
  };
}

export type ArtifactService = ReturnType<typeof createArtifactService>;

// Artifacts of transform runs: compiled SQL, logs,
// output summary. /content answers JSON; /download the file itself.
import { notFound } from 'agent-platform/sdk';
import type { TransformsContext } from './context.ts';
import { artifactsStore } from './store/artifacts.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createArtifactService(context: TransformsContext) {
  const { core } = context;
  const missing = (id: string) => notFound(`Artifact ${id} does not exist`, 'ARTIFACT_NOT_FOUND');
  return {
    list: (tenantId: string, filter: { transformId?: string; runId?: string; kind?: string; limit: number; offset: number }) =>
      core.withTenant(tenantId, async (trx) => ({ items: await artifactsStore.list(trx, filter), limit: filter.limit, offset: filter.offset })),

    get: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      const row = UUID.test(id) ? await artifactsStore.find(trx, id) : undefined;
      if (!row) throw missing(id);
      return row;
    }),

    /** The artifact with its content (JSON artifacts parsed). */
    content: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      const row = UUID.test(id) ? await artifactsStore.content(trx, id) : undefined;
      if (!row) throw missing(id);
      return row;
    }),
  };
}

export type ArtifactService = ReturnType<typeof createArtifactService>;

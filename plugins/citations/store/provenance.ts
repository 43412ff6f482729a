// kysely queries for citation_provenance: the chunks each execution context
// was shown. Tenant transactions only.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import type { ChunkRef } from '../api.ts';
import './tables.ts';

export const provenanceStore = {
  /** Records the chunks as shown (first time kept), in one statement whatever their number. */
  record: async (trx: TenantTransaction, tenantId: string, context: { type: string; id: string }, refs: readonly ChunkRef[], functionName: string) => {
    if (refs.length === 0) return;
    await sql`
      INSERT INTO citation_provenance (tenant_id, context_type, context_id, chunk_id, revision_id, function_name)
      SELECT ${tenantId}, ${context.type}, ${context.id}, r.chunk_id, r.revision_id, ${functionName}
      FROM unnest(${refs.map((r) => r.chunk_id)}::uuid[], ${refs.map((r) => r.revision_id)}::text[]) AS r(chunk_id, revision_id)
      ON CONFLICT (tenant_id, context_type, context_id, chunk_id) DO NOTHING`.execute(trx);
  },

  /** Which of these chunks the context has been shown. */
  shown: async (trx: TenantTransaction, context: { type: string; id: string }, chunkIds: readonly string[]): Promise<Set<string>> => {
    if (chunkIds.length === 0) return new Set();
    const rows = await trx.selectFrom('citation_provenance').select('chunk_id')
      .where('context_type', '=', context.type).where('context_id', '=', context.id)
      .where('chunk_id', 'in', [...new Set(chunkIds)]).execute();
    return new Set(rows.map((row) => row.chunk_id));
  },

  prune: async (trx: TenantTransaction, before: Date): Promise<number> =>
    Number((await trx.deleteFrom('citation_provenance').where('first_shown_at', '<', before).executeTakeFirst()).numDeletedRows),
};

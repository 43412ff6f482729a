// Chunks as other plugins read them (api.ts ChunkRecord): the chunk with its
// revision number and its document's name and state, deleted documents included.
import { sql } from 'kysely';
import { isUuid, type TenantTransaction } from 'agent-platform/sdk';
import type { ChunkRecord } from '../api.ts';
import './tables.ts';

type Trx = TenantTransaction;

export async function chunkRecords(trx: Trx, ids: readonly string[]): Promise<ChunkRecord[]> {
  const valid = [...new Set(ids.filter(isUuid))];
  if (valid.length === 0) return [];
  const rows = await trx.selectFrom('ingestion_chunks as c')
    .innerJoin('ingestion_revisions as r', 'r.id', 'c.revision_id')
    .innerJoin('ingestion_documents as d', 'd.id', 'c.document_id')
    .select([
      'c.id as chunk_id', 'c.revision_id', 'r.revision_number', 'c.document_id', 'd.name as document_name', 'd.collection_id',
      'c.text', 'c.page', 'c.section', 'c.char_start', 'c.char_end',
      sql<boolean>`d.deleted_at IS NOT NULL`.as('document_deleted'),
      sql<boolean>`d.latest_revision_id IS NOT DISTINCT FROM c.revision_id`.as('is_latest_revision'),
    ])
    .where('c.id', 'in', valid)
    .execute();
  return rows;
}

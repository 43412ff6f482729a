// SQL of uploaded source files (pipeline_source_files), in tenant transactions:
// row-level security keeps every other tenant's files out of sight.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

const metadata = ['id', 'name', 'content_type', 'size_bytes', 'created_by', 'created_at'] as const;

export const filesStore = {
  insert: (trx: TenantTransaction, file: { tenant_id: string; name: string; content_type: string; content: Buffer; created_by: string | null }) =>
    trx.insertInto('pipeline_source_files').values({ ...file, size_bytes: file.content.byteLength }).returning(metadata).executeTakeFirstOrThrow(),

  find: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('pipeline_source_files').select(metadata).where('id', '=', id).executeTakeFirst(),

  content: async (trx: TenantTransaction, id: string): Promise<Buffer | undefined> =>
    (await trx.selectFrom('pipeline_source_files').select('content').where('id', '=', id).executeTakeFirst())?.content,

  delete: (trx: TenantTransaction, id: string) =>
    trx.deleteFrom('pipeline_source_files').where('id', '=', id).where(sql<boolean>`true`).executeTakeFirst(),
};

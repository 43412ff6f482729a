// kysely queries for rendered page images (vision descriptions, page-image retrieval).
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import type { PageImage } from '../parsers/types.ts';
import { toVectorLiteral } from './revisions.ts';
import './tables.ts';

type Trx = TenantTransaction;

export const pageImagesStore = {
  replaceOfRevision: async (trx: Trx, base: { tenant_id: string; revision_id: string; document_id: string; collection_id: number }, images: PageImage[]) => {
    await trx.deleteFrom('ingestion_page_images').where('revision_id', '=', base.revision_id).execute();
    for (const image of images) {
      await trx.insertInto('ingestion_page_images')
        .values({ ...base, page: image.page, kind: image.kind, png: Buffer.from(image.png) })
        .execute();
    }
  },

  drawingsOf: (trx: Trx, revisionId: string, limit: number) =>
    trx.selectFrom('ingestion_page_images').select(['page', 'png']).where('revision_id', '=', revisionId)
      .where('kind', '=', 'drawing').orderBy('page').limit(limit).execute(),

  unembedded: (trx: Trx, revisionId: string, limit: number) =>
    trx.selectFrom('ingestion_page_images').select(['page', 'png']).where('revision_id', '=', revisionId)
      .where('embedding', 'is', null).orderBy('page').limit(limit).execute(),

  setEmbeddings: async (trx: Trx, revisionId: string, rows: { page: number; embedding: number[] }[], model: string) => {
    if (rows.length === 0) return;
    const values = sql.join(rows.map((row) => sql`(${row.page}::int, ${toVectorLiteral(row.embedding)}::vector, ${row.embedding.length}::int)`));
    await sql`
      UPDATE ingestion_page_images p SET embedding = v.embedding, embedding_dims = v.dims, embedding_model = ${model}
      FROM (VALUES ${values}) AS v (page, embedding, dims)
      WHERE p.revision_id = ${revisionId} AND p.page = v.page`.execute(trx);
  },
};

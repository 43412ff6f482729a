// kysely queries for revisions and chunks. A revision is written while its run
// is `building` and never changes after (a trigger enforces it); chunks are
// inserted by parse_and_chunk, embedded by enrich, and become `is_current` in
// finalize's transaction, when the previous revision's chunks stop being so.
import { sql, type Selectable } from 'kysely';
import type { KeysetPage, TenantTransaction } from 'agent-platform/sdk';
import type { ChunkKind, ChunksTable, PageInfo, SectionInfo } from './tables.ts';
import './tables.ts';

type Trx = TenantTransaction;

const revisionSummary = [
  'id', 'document_id', 'revision_number', 'status', 'content_hash', 'content_type', 'size_bytes', 'parser', 'language',
  'page_count', 'warnings', 'enrichment', 'error', 'created_at', 'completed_at',
] as const;

export type RevisionSummary = Awaited<ReturnType<typeof revisionsStore.listOf>>[number];

export interface NewChunk {
  ordinal: number;
  kind: ChunkKind;
  text: string;
  page: number;
  section: string | null;
  char_start: number;
  char_end: number;
  token_count: number;
  ts_config: string;
}

const chunkColumns = ['id', 'ordinal', 'kind', 'text', 'page', 'section', 'char_start', 'char_end', 'token_count', 'ts_config', 'embedding_model'] as const;

/** A chunk as the chunk reads return it (the columns above). */
export type ChunkRow = Pick<Selectable<ChunksTable>, (typeof chunkColumns)[number]>;

/** Rows per INSERT: big documents are written in slices (Postgres caps a statement at 65535 parameters). */
const INSERT_SLICE = 500;

export const revisionsStore = {
  /** The next revision of a document (numbers increment per document). */
  create: async (trx: Trx, values: { tenant_id: string; document_id: string; content_hash: string; content_type: string; size_bytes: number }) => {
    const { rows } = await sql<{ id: string; revision_number: number }>`
      INSERT INTO ingestion_revisions (tenant_id, document_id, revision_number, content_hash, content_type, size_bytes)
      SELECT ${values.tenant_id}, ${values.document_id}, coalesce(max(revision_number), 0) + 1,
             ${values.content_hash}, ${values.content_type}, ${values.size_bytes}
      FROM ingestion_revisions WHERE document_id = ${values.document_id}
      RETURNING id, revision_number`.execute(trx);
    return rows[0];
  },

  get: (trx: Trx, id: string) =>
    trx.selectFrom('ingestion_revisions').select([...revisionSummary, 'text', 'pages', 'sections']).where('id', '=', id).executeTakeFirst(),

  byNumber: (trx: Trx, documentId: string, number: number) =>
    trx.selectFrom('ingestion_revisions').select([...revisionSummary, 'text', 'pages', 'sections'])
      .where('document_id', '=', documentId).where('revision_number', '=', number).executeTakeFirst(),

  /** Several revisions by id, each with its document's latest successful revision (to tell is_latest); missing ids are left out. */
  byIds: (trx: Trx, ids: readonly string[]) =>
    ids.length === 0
      ? Promise.resolve([])
      : trx.selectFrom('ingestion_revisions as r').innerJoin('ingestion_documents as d', 'd.id', 'r.document_id')
        .select(revisionSummary.map((column) => `r.${column}` as const)).select('d.latest_revision_id')
        .where('r.id', 'in', [...ids]).execute(),

  listOf: (trx: Trx, documentId: string) =>
    trx.selectFrom('ingestion_revisions').select([...revisionSummary]).where('document_id', '=', documentId)
      .orderBy('revision_number', 'desc').execute(),

  saveParsed: (trx: Trx, id: string, values: {
    parser: string; language: string; text: string; pages: PageInfo[]; sections: SectionInfo[]; page_count: number; warnings: string[];
  }) =>
    trx.updateTable('ingestion_revisions')
      .set({
        parser: values.parser, language: values.language, text: values.text, page_count: values.page_count,
        pages: JSON.stringify(values.pages), sections: JSON.stringify(values.sections), warnings: JSON.stringify(values.warnings),
      })
      .where('id', '=', id).where('status', '=', 'building')
      .execute(),

  /** Enrichment may add to the text (vision descriptions) while the revision is still building. */
  appendText: (trx: Trx, id: string, text: string, sections: SectionInfo[]) =>
    trx.updateTable('ingestion_revisions')
      .set({ text, sections: JSON.stringify(sections) })
      .where('id', '=', id).where('status', '=', 'building')
      .execute(),

  /** The enrich stage's report (what was embedded or described, what failed). */
  setEnrichment: (trx: Trx, id: string, enrichment: object) =>
    trx.updateTable('ingestion_revisions').set({ enrichment: JSON.stringify(enrichment) })
      .where('id', '=', id).where('status', '=', 'building').execute(),

  finish: (trx: Trx, id: string, status: 'ready' | 'failed', error: string | null = null) =>
    trx.updateTable('ingestion_revisions').set({ status, error, completed_at: sql`now()` })
      .where('id', '=', id).where('status', '=', 'building').execute(),

  /** A run that dies before finalize leaves a building revision: failed, so it never looks in progress. */
  failBuilding: (trx: Trx, documentId: string, error: string) =>
    trx.updateTable('ingestion_revisions').set({ status: 'failed', error, completed_at: sql`now()` })
      .where('document_id', '=', documentId).where('status', '=', 'building').execute(),
};

export const chunksStore = {
  insertMany: async (trx: Trx, base: { tenant_id: string; revision_id: string; document_id: string; collection_id: number }, chunks: NewChunk[]) => {
    for (let i = 0; i < chunks.length; i += INSERT_SLICE) {
      await trx.insertInto('ingestion_chunks')
        .values(chunks.slice(i, i + INSERT_SLICE).map((chunk) => ({ ...base, ...chunk })))
        .execute();
    }
  },

  /** Chunks of a revision that was parsed before (a retried parse_and_chunk starts clean). */
  deleteOfRevision: (trx: Trx, revisionId: string) => trx.deleteFrom('ingestion_chunks').where('revision_id', '=', revisionId).execute(),

  countOfRevision: async (trx: Trx, revisionId: string) =>
    Number((await trx.selectFrom('ingestion_chunks').select(trx.fn.countAll<number>().as('n')).where('revision_id', '=', revisionId)
      .executeTakeFirstOrThrow()).n),

  countUnembedded: async (trx: Trx, revisionId: string) =>
    Number((await trx.selectFrom('ingestion_chunks').select(trx.fn.countAll<number>().as('n')).where('revision_id', '=', revisionId)
      .where('embedding', 'is', null).executeTakeFirstOrThrow()).n),

  maxOrdinal: async (trx: Trx, revisionId: string) =>
    (await trx.selectFrom('ingestion_chunks').select(sql<number>`coalesce(max(ordinal), -1)`.as('n')).where('revision_id', '=', revisionId)
      .executeTakeFirstOrThrow()).n,

  /** Chunks still to embed, in order (resumable: a retried enrich skips what is done). */
  unembedded: (trx: Trx, revisionId: string, limit: number) =>
    trx.selectFrom('ingestion_chunks').select(['id', 'text']).where('revision_id', '=', revisionId).where('embedding', 'is', null)
      .orderBy('ordinal').limit(limit).execute(),

  setEmbeddings: async (trx: Trx, rows: { id: string; embedding: number[] }[], model: string) => {
    if (rows.length === 0) return;
    const values = sql.join(rows.map((row) => sql`(${row.id}::uuid, ${toVectorLiteral(row.embedding)}::vector, ${row.embedding.length}::int)`));
    await sql`
      UPDATE ingestion_chunks c SET embedding = v.embedding, embedding_dims = v.dims, embedding_model = ${model}
      FROM (VALUES ${values}) AS v (id, embedding, dims)
      WHERE c.id = v.id`.execute(trx);
  },

  /** The chunks of a document's new revision become the searchable ones, its older ones stop being so. */
  makeCurrent: async (trx: Trx, documentId: string, revisionId: string) => {
    await trx.updateTable('ingestion_chunks').set({ is_current: false })
      .where('document_id', '=', documentId).where('is_current', '=', true).where('revision_id', '<>', revisionId).execute();
    await trx.updateTable('ingestion_chunks').set({ is_current: true }).where('revision_id', '=', revisionId).execute();
    await trx.updateTable('ingestion_page_images').set({ is_current: false })
      .where('document_id', '=', documentId).where('is_current', '=', true).where('revision_id', '<>', revisionId).execute();
    await trx.updateTable('ingestion_page_images').set({ is_current: true }).where('revision_id', '=', revisionId).execute();
  },

  /** A deleted document leaves search (its chunks stay for citations). */
  retire: async (trx: Trx, documentId: string) => {
    await trx.updateTable('ingestion_chunks').set({ is_current: false }).where('document_id', '=', documentId).where('is_current', '=', true).execute();
    await trx.updateTable('ingestion_page_images').set({ is_current: false }).where('document_id', '=', documentId).where('is_current', '=', true).execute();
  },

  /** Adds the revision's words to the tenant's vocabulary (fuzzy keyword search). */
  addTerms: (trx: Trx, tenantId: string, revisionId: string) =>
    sql`
      INSERT INTO ingestion_terms (tenant_id, term)
      SELECT DISTINCT ${tenantId}, word
      FROM ingestion_chunks c, unnest(tsvector_to_array(to_tsvector('simple', c.text))) AS word
      WHERE c.revision_id = ${revisionId} AND char_length(word) BETWEEN 3 AND 40 AND word !~ '^[0-9.,:/-]+$'
      ON CONFLICT DO NOTHING`.execute(trx),

  /** A page of a revision's chunks (read_document), optionally of one page or of the sections whose title contains `section`; with the total. */
  readPage: async (trx: Trx, revisionId: string, filter: { page?: number; section?: string }, offset: number, limit: number) => {
    let query = trx.selectFrom('ingestion_chunks').where('revision_id', '=', revisionId);
    if (filter.page !== undefined) query = query.where('page', '=', filter.page);
    if (filter.section) query = query.where('section', 'ilike', `%${filter.section.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const [rows, count] = await Promise.all([
      query.select(['id', 'page', 'section', 'text']).orderBy('ordinal').offset(offset).limit(limit).execute(),
      query.select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },

  ofRevision: (trx: Trx, revisionId: string, offset: number, limit: number) =>
    trx.selectFrom('ingestion_chunks').select([...chunkColumns])
      .where('revision_id', '=', revisionId).orderBy('ordinal').offset(offset).limit(limit).execute(),

  /** A keyset page of a revision's chunks in ordinal order (KeysetPage: backward reads before the cursor, nearest first). */
  pageOfRevision: (trx: Trx, revisionId: string, page: KeysetPage<number>) => {
    let query = trx.selectFrom('ingestion_chunks').select([...chunkColumns]).where('revision_id', '=', revisionId);
    const forward = page.direction === 'forward';
    if (page.cursor !== undefined) query = query.where('ordinal', forward ? '>' : '<', page.cursor);
    return query.orderBy('ordinal', forward ? 'asc' : 'desc').limit(page.limit).execute();
  },

  /** Several chunks by id, with their revision; missing ids are left out. */
  byIds: (trx: Trx, ids: readonly string[]) =>
    ids.length === 0
      ? Promise.resolve([])
      : trx.selectFrom('ingestion_chunks').select([...chunkColumns, 'revision_id']).where('id', 'in', [...ids]).execute(),
};

export function toVectorLiteral(values: number[]): string {
  return `[${values.map((value) => (Number.isFinite(value) ? value : 0)).join(',')}]`;
}

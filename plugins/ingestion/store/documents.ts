// kysely queries for documents and their original bytes. Tenant-owned: every
// query takes a tenant transaction.
import { sql } from 'kysely';
import type { KeysetPage, TenantTransaction } from 'agent-platform/sdk';
import type { IngestionStatus, Stage } from './tables.ts';
import './tables.ts';

type Trx = TenantTransaction;

const documentColumns = [
  'id', 'tenant_id', 'collection_id', 'source_id', 'source_key', 'name', 'filename', 'content_type', 'size_bytes', 'content_hash', 'metadata',
  'page_count', 'ingestion_status', 'stage', 'progress_pct', 'error', 'run_id', 'run_revision_id', 'latest_revision_id',
  'chunk_count', 'runs', 'started_at', 'completed_at', 'deleted_at', 'created_at', 'updated_at',
] as const;

export type DocumentRow = NonNullable<Awaited<ReturnType<typeof documentsStore.get>>>;

export interface NewDocument {
  tenant_id: string;
  collection_id: number;
  source_id?: number | null;
  source_key?: string | null;
  name: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  content_hash: string;
  metadata: Record<string, unknown>;
  page_count: number | null;
  run_id: string | null;
}

export interface DocumentFilter {
  collectionIds?: number[];
  sourceId?: number;
  status?: IngestionStatus;
  includeDeleted?: boolean;
}

/** Collections private to one context (store/scoped.ts): their documents are listed to no one. */
const privateCollections = (trx: Trx) => trx.selectFrom('ingestion_collections').select('id').where('scope', 'is not', null);

function filtered(trx: Trx, filter: DocumentFilter) {
  let query = trx.selectFrom('ingestion_documents');
  if (filter.collectionIds) query = query.where('collection_id', 'in', filter.collectionIds.length ? filter.collectionIds : [-1]);
  else query = query.where('collection_id', 'not in', privateCollections(trx));
  if (filter.sourceId !== undefined) query = query.where('source_id', '=', filter.sourceId);
  if (filter.status) query = query.where('ingestion_status', '=', filter.status);
  if (!filter.includeDeleted) query = query.where('deleted_at', 'is', null);
  return query;
}

/**
 * A document's place in list order (newest first, then id): its creation time
 * to the microsecond, as UTC ISO 8601 text, and its id.
 */
export type DocumentKey = [string, string];

export const DOCUMENT_KEY_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const createdKey = sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export const documentsStore = {
  /** Documents created since `since` (the console's usage counter). */
  async createdSince(trx: Trx, since: Date): Promise<number> {
    const row = await trx.selectFrom('ingestion_documents').select((eb) => eb.fn.countAll<string>().as('n')).where('created_at', '>=', since).executeTakeFirstOrThrow();
    return Number(row.n);
  },

  insert: (trx: Trx, values: NewDocument) =>
    trx.insertInto('ingestion_documents')
      .values({ ...values, metadata: JSON.stringify(values.metadata) })
      .returning([...documentColumns])
      .executeTakeFirstOrThrow(),

  get: (trx: Trx, id: string) =>
    trx.selectFrom('ingestion_documents').select([...documentColumns]).where('id', '=', id).executeTakeFirst(),

  lock: (trx: Trx, id: string) =>
    trx.selectFrom('ingestion_documents').select([...documentColumns]).where('id', '=', id).forUpdate().executeTakeFirst(),

  list: async (trx: Trx, filter: DocumentFilter, skip: number, limit: number) => {
    const query = filtered(trx, filter);
    const [items, count] = await Promise.all([
      query.select([...documentColumns]).orderBy('created_at', 'desc').orderBy('id').offset(skip).limit(limit).execute(),
      query.select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  },

  /**
   * A keyset page in list order (newest first, then id), each row with its
   * `created_key` (DocumentKey's time). KeysetPage: backward reads before the
   * cursor, nearest first.
   */
  page: (trx: Trx, filter: DocumentFilter, page: KeysetPage<DocumentKey>) => {
    let query = filtered(trx, filter).select([...documentColumns]).select(createdKey.as('created_key'));
    const forward = page.direction === 'forward';
    if (page.cursor !== undefined) {
      const [time, id] = page.cursor;
      query = forward
        ? query.where(sql<boolean>`(created_at < ${time}::timestamptz OR (created_at = ${time}::timestamptz AND id > ${id}::uuid))`)
        : query.where(sql<boolean>`(created_at > ${time}::timestamptz OR (created_at = ${time}::timestamptz AND id < ${id}::uuid))`);
    }
    return query.orderBy('created_at', forward ? 'desc' : 'asc').orderBy('id', forward ? 'asc' : 'desc').limit(page.limit).execute();
  },

  count: async (trx: Trx, filter: DocumentFilter) =>
    Number((await filtered(trx, filter).select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),

  /** Several documents by id (deleted ones included, as `get`); missing ids are left out. */
  byIds: (trx: Trx, ids: readonly string[]) =>
    ids.length === 0
      ? Promise.resolve([])
      : trx.selectFrom('ingestion_documents').select([...documentColumns]).where('id', 'in', [...ids]).execute(),

  /** Moves a document's run forward; only while `runId` is still its run (a stale job changes nothing). */
  progress: async (trx: Trx, id: string, runId: string, values: { stage?: Stage; progress_pct?: number; status?: IngestionStatus; started?: boolean; runRevisionId?: string }) => {
    const result = await trx.updateTable('ingestion_documents')
      .set({
        ...(values.stage ? { stage: values.stage } : {}),
        ...(values.progress_pct !== undefined ? { progress_pct: values.progress_pct } : {}),
        ...(values.status ? { ingestion_status: values.status } : {}),
        ...(values.started ? { started_at: sql`now()`, completed_at: null, error: null } : {}),
        ...(values.runRevisionId ? { run_revision_id: values.runRevisionId } : {}),
        updated_at: sql`now()`,
      })
      .where('id', '=', id).where('run_id', '=', runId).where('deleted_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  /** Ends a run successfully: the revision becomes the one read and searched. */
  complete: (trx: Trx, id: string, values: { revisionId: string; chunkCount: number; pageCount: number | null }) =>
    trx.updateTable('ingestion_documents')
      .set({
        ingestion_status: 'ready', stage: 'done', progress_pct: 100, error: null, run_id: null, run_revision_id: null,
        latest_revision_id: values.revisionId, chunk_count: values.chunkCount, page_count: values.pageCount,
        completed_at: sql`now()`, updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .execute(),

  fail: (trx: Trx, id: string, error: string) =>
    trx.updateTable('ingestion_documents')
      .set({ ingestion_status: 'error', error, run_id: null, run_revision_id: null, completed_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute(),

  /** Starts a new run (upload, reingest, reconciler): a new run id, back to the first stage. */
  startRun: (trx: Trx, id: string, runId: string, status: IngestionStatus) =>
    trx.updateTable('ingestion_documents')
      .set({
        run_id: runId, run_revision_id: null, ingestion_status: status, stage: status === 'pending' ? null : 'validate',
        progress_pct: 0, error: null, started_at: null, completed_at: null, runs: sql`runs + 1`, updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .returning([...documentColumns])
      .executeTakeFirstOrThrow(),

  /** Back to pending without a run (retry, sync change): the reconciler starts it. */
  resetToPending: async (trx: Trx, filter: { collectionIds?: number[]; sourceId?: number; statuses: IngestionStatus[] }) => {
    let query = trx.updateTable('ingestion_documents')
      .set({ ingestion_status: 'pending', stage: null, progress_pct: 0, run_id: null, run_revision_id: null, error: null, updated_at: sql`now()` })
      .where('ingestion_status', 'in', filter.statuses)
      .where('deleted_at', 'is', null);
    if (filter.collectionIds) query = query.where('collection_id', 'in', filter.collectionIds.length ? filter.collectionIds : [-1]);
    if (filter.sourceId !== undefined) query = query.where('source_id', '=', filter.sourceId);
    return (await query.returning('id').execute()).map((row) => row.id);
  },

  /** One document back to pending without a run (changed sync item). */
  resetOne: (trx: Trx, id: string) =>
    trx.updateTable('ingestion_documents')
      .set({ ingestion_status: 'pending', stage: null, progress_pct: 0, run_id: null, run_revision_id: null, error: null, updated_at: sql`now()` })
      .where('id', '=', id).execute(),

  /** Pending documents without a run, oldest first, locked for the reconciler (others skip them). */
  claimPending: (trx: Trx, limit: number) =>
    trx.selectFrom('ingestion_documents').select([...documentColumns])
      .where('ingestion_status', '=', 'pending').where('run_id', 'is', null).where('deleted_at', 'is', null)
      .orderBy('updated_at').limit(limit).forUpdate().skipLocked().execute(),

  hasPending: async (trx: Trx) =>
    Boolean(await trx.selectFrom('ingestion_documents').select('id')
      .where('ingestion_status', '=', 'pending').where('run_id', 'is', null).where('deleted_at', 'is', null).limit(1).executeTakeFirst()),

  /** New bytes for a document (a changed sync item): the next run reads them. */
  replaceContent: (trx: Trx, id: string, values: { content_hash: string; size_bytes: number; content_type: string; page_count: number | null }) =>
    trx.updateTable('ingestion_documents').set({ ...values, updated_at: sql`now()` }).where('id', '=', id).execute(),

  markDeleted: (trx: Trx, id: string) =>
    trx.updateTable('ingestion_documents')
      .set({ deleted_at: sql`now()`, run_id: null, run_revision_id: null, updated_at: sql`now()` })
      .where('id', '=', id).where('deleted_at', 'is', null)
      .returning([...documentColumns])
      .executeTakeFirst(),

  bySourceKeys: (trx: Trx, sourceId: number) =>
    trx.selectFrom('ingestion_documents').select(['id', 'source_key', 'content_hash', 'ingestion_status'])
      .where('source_id', '=', sourceId).where('deleted_at', 'is', null).execute(),
};

export const blobsStore = {
  /** Stores bytes once per tenant and hash (re-uploading the same file costs nothing). */
  put: (trx: Trx, tenantId: string, hash: string, bytes: Buffer) =>
    trx.insertInto('ingestion_blobs')
      .values({ tenant_id: tenantId, content_hash: hash, size_bytes: bytes.length, bytes })
      .onConflict((oc) => oc.columns(['tenant_id', 'content_hash']).doNothing())
      .execute(),

  exists: async (trx: Trx, hash: string) =>
    Boolean(await trx.selectFrom('ingestion_blobs').select('content_hash').where('content_hash', '=', hash).executeTakeFirst()),

  get: async (trx: Trx, hash: string) =>
    (await trx.selectFrom('ingestion_blobs').select('bytes').where('content_hash', '=', hash).executeTakeFirst())?.bytes,

  /** Deletes bytes no live document points at any more. */
  dropIfUnused: (trx: Trx, hash: string) =>
    trx.deleteFrom('ingestion_blobs')
      .where('content_hash', '=', hash)
      .where(({ not, exists, selectFrom }) => not(exists(
        selectFrom('ingestion_documents').select('id').where('content_hash', '=', hash).where('deleted_at', 'is', null),
      )))
      .execute(),
};

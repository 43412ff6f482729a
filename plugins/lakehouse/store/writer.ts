// One write = one snapshot, in one tenant transaction on one connection
// (core.withTenantSession): lock the dataset's registry row (one writer per
// dataset), COPY the rows into a temporary staging table, then the
// set-based statements of the write mode, the snapshot record, the
// dataset.snapshot_created event and the caller's own statements (a sync's
// cursor and counters). A crash anywhere rolls all of it back: nothing is
// lost (the source is read again from the committed cursor) and nothing is
// doubled. A write that changes nothing makes no snapshot.
//
// A first load (a table that never held a row, and a batch that needs no
// deduplication: every row is a new version) skips the stage: the rows are
// COPYed straight into the table (store/rows.ts beginBulkLoad), a tenant
// query piped in when it can be (landing/landing.ts), about half the work.
//
// Write modes:
// - overwrite: the snapshot holds exactly the staged rows. With a primary
//   key, rows unchanged since the last snapshot keep their versions (only
//   changes make new versions); without one, the whole table is replaced
//   unless it is identical.
// - append: every staged row is a new row.
// - append_dedup: by primary key, a staged row replaces its key's current
//   version when it differs and is not older by the cursor field; keys not in
//   the batch stay. Within a batch the newest row of a key wins (cursor, then
//   arrival).
import { badRequest, notFound, sql, type CoreServices, type TenantSession, type TenantTransaction } from 'agent-platform/sdk';
import type { WriteRequest, WriteResult } from '../api.ts';
import { EVENT_SOURCE, SNAPSHOT_CREATED } from '../event-types.ts';
import { copyLanding, pipeable, pipeLanding, queryLanding, readBeforeWriting, type Landed } from '../landing/landing.ts';
import { qualified, quoteIdent } from '../datasets/naming.ts';
import { datasetsStore, snapshotsStore, type DatasetRow } from './datasets.ts';
import { rowsStore, type RowsTarget } from './rows.ts';
import type { LakeColumn } from '../datasets/types.ts';

const STAGE = 'lake_stage';
const BATCH = 'lake_batch';
const MODES = ['overwrite', 'append', 'append_dedup'];
/**
 * From this many staged rows, a first load (no current rows) drops the key
 * index and builds it after the insert: one sorted build instead of a btree
 * insertion per row. The drop locks the table until commit (readers of the
 * dataset wait for its first load), so small first loads keep the index.
 */
const FIRST_LOAD_INDEX_REBUILD_ROWS = 10_000;

export function targetOf(row: Pick<DatasetRow, 'namespace' | 'physical_table' | 'columns'>): RowsTarget {
  return { relation: qualified(row.namespace, row.physical_table), columns: row.columns };
}

function columnsNamed(dataset: DatasetRow, names: string[], what: string): LakeColumn[] {
  const byName = new Map(dataset.columns.map((column) => [column.name, column]));
  return names.map((name) => {
    const column = byName.get(name);
    if (!column) throw badRequest(`${what} "${name}" is not a column of ${dataset.dataset_id}`, 'DATASET_COLUMN_UNKNOWN');
    return column;
  });
}

/** Lands the source's rows in the stage, or (a first load: beginBulkLoad is open) in the table itself. */
function land(core: CoreServices, tenantId: string, session: TenantSession, dataset: DatasetRow, request: WriteRequest, into: 'stage' | 'table'): Promise<Landed> {
  const { source } = request;
  const relation = into === 'stage' ? quoteIdent(STAGE) : targetOf(dataset).relation;
  const sourceColumns = source.kind === 'records' ? dataset.columns : columnsNamed(dataset, source.properties, 'Property');
  if (source.kind !== 'query') return copyLanding(session, relation, dataset.columns, sourceColumns, source);
  return into === 'stage'
    ? queryLanding(session, STAGE, sourceColumns, source)
    : pipeLanding(core, tenantId, session, relation, sourceColumns, source, request.beforeLanding);
}

/** Whether the write deduplicates the staged batch by key (the one use of the arrival order). */
function deduplicates(request: WriteRequest, keys: LakeColumn[]): boolean {
  return request.mode !== 'append' && keys.length > 0 && !request.uniqueKeys;
}

interface Changes {
  added: number;
  removed: number;
}

/** The statements of the write mode; `empty`: the dataset has no current rows (everything staged is new). */
async function applyMode(trx: TenantTransaction, target: RowsTarget, request: WriteRequest, keys: LakeColumn[], cursor: LakeColumn | undefined, snapshot: string, empty: boolean): Promise<Changes> {
  const keyColumns = keys.map((key) => key.column);
  const staged = () => (deduplicates(request, keys) ? rowsStore.dedupe(trx, STAGE, BATCH, keyColumns, cursor).then(() => BATCH) : Promise.resolve(STAGE));
  switch (request.mode) {
    case 'append':
      return { added: await rowsStore.appendAll(trx, target, STAGE, snapshot), removed: 0 };
    case 'append_dedup': {
      const batch = await staged();
      if (empty) return { added: await rowsStore.appendAll(trx, target, batch, snapshot), removed: 0 };
      const added = await rowsStore.insertChanged(trx, target, batch, keyColumns, snapshot, cursor);
      return { added, removed: added ? await rowsStore.closeReplaced(trx, target, keyColumns, snapshot) : 0 };
    }
    default: {
      if (keys.length === 0) {
        if (!empty && (await rowsStore.sameAsCurrent(trx, target, STAGE))) return { added: 0, removed: 0 };
        const removed = empty ? 0 : await rowsStore.closeAll(trx, target, snapshot);
        return { added: await rowsStore.appendAll(trx, target, STAGE, snapshot), removed };
      }
      const batch = await staged();
      if (empty) return { added: await rowsStore.appendAll(trx, target, batch, snapshot), removed: 0 };
      const added = await rowsStore.insertChanged(trx, target, batch, keyColumns, snapshot);
      return { added, removed: await rowsStore.closeNotIn(trx, target, batch, keyColumns, snapshot) };
    }
  }
}

interface Landing extends Landed {
  cursorMax: string | null;
  changes: Changes;
}

/** The rows of the write in the table as versions from `snapshot`: a first load, a query straight in, or through the stage. */
async function landRows(
  core: CoreServices, tenantId: string, session: TenantSession, dataset: DatasetRow, request: WriteRequest,
  keys: LakeColumn[], cursor: LakeColumn | undefined, snapshot: string,
): Promise<Landing> {
  const { trx } = session;
  const { source } = request;
  const target = targetOf(dataset);
  const empty = dataset.row_count === 0;
  const firstLoad = dataset.latest_snapshot_id === null && !deduplicates(request, keys) && (source.kind !== 'query' || pipeable(core, source));
  if (firstLoad && (await rowsStore.beginBulkLoad(trx, dataset.id, snapshot))) {
    // A piped query runs beforeLanding on its reading transaction.
    if (source.kind !== 'query' && request.beforeLanding) await request.beforeLanding(trx);
    const landed = await land(core, tenantId, session, dataset, request, 'table');
    const cursorMax = cursor && landed.count > 0 ? await rowsStore.cursorMax(trx, target.relation, cursor) : null;
    await rowsStore.endBulkLoad(trx, dataset.id);
    return { ...landed, cursorMax, changes: { added: landed.count, removed: 0 } };
  }
  // A query into an empty dataset without a key (a transform's first materialization where it cannot
  // be piped): one insert straight into the table instead of stage-then-copy; every row is new.
  if (source.kind === 'query' && empty && keys.length === 0 && dataset.primary_key.length === 0 && !cursor) {
    if (request.beforeLanding) await request.beforeLanding(trx);
    const added = await rowsStore.insertQueryAt(trx, target, columnsNamed(dataset, source.properties, 'Property'), source.sql, source.parameters ?? [], snapshot, tenantId);
    return { count: added, typeErrors: 0, cursorMax: null, changes: { added, removed: 0 } };
  }
  await rowsStore.createStage(trx, STAGE, dataset.columns, deduplicates(request, keys));
  if (request.beforeLanding) await request.beforeLanding(trx);
  const landed = await land(core, tenantId, session, dataset, request, 'stage');
  const cursorMax = cursor && landed.count > 0 ? await rowsStore.cursorMax(trx, quoteIdent(STAGE), cursor) : null;
  // A large first load builds the key index once after the rows instead of row by row.
  const rebuildIndex = empty && landed.count >= FIRST_LOAD_INDEX_REBUILD_ROWS && dataset.primary_key.length > 0 && (await rowsStore.dropKeyIndex(trx, dataset.id));
  const changes = await applyMode(trx, target, request, keys, cursor, snapshot, empty);
  if (rebuildIndex) await rowsStore.createKeyIndex(trx, dataset.id);
  return { ...landed, cursorMax, changes };
}

export function createWriter(core: CoreServices) {
  return async function write(
    tenantId: string, datasetId: string, request: WriteRequest,
    inTransaction?: (trx: TenantTransaction, result: WriteResult) => Promise<void>,
  ): Promise<{ result: WriteResult; datasetRef: number; snapshotCount: number }> {
    if (!MODES.includes(request.mode)) throw badRequest(`Unknown write mode "${String(request.mode)}"`, 'WRITE_MODE_INVALID');
    request = { ...request, source: await readBeforeWriting(core, request.source) };
    return core.withTenantSession(tenantId, async (session) => {
      const { trx } = session;
      // Timestamps without a zone are UTC, whatever the server's setting.
      await sql`SET LOCAL TimeZone = 'UTC'`.execute(trx);
      const dataset = await datasetsStore.lockOwn(trx, tenantId, datasetId);
      if (!dataset) throw notFound(`Dataset ${datasetId} does not exist in this tenant`, 'DATASET_NOT_FOUND');
      const keys = columnsNamed(dataset, request.primaryKey ?? dataset.primary_key, 'Primary key');
      if (request.mode === 'append_dedup' && keys.length === 0) throw badRequest('append_dedup needs a primary key', 'PRIMARY_KEY_REQUIRED');
      const cursor = request.cursorField ? columnsNamed(dataset, [request.cursorField], 'Cursor field')[0] : undefined;
      const snapshot = await snapshotsStore.nextId(trx);
      const { count, cursorMax, typeErrors, changes } = await landRows(core, tenantId, session, dataset, request, keys, cursor, snapshot);
      const created = changes.added + changes.removed > 0 || dataset.latest_snapshot_id === null;
      const rowCount = dataset.row_count + changes.added - changes.removed;
      const result: WriteResult = {
        datasetId, snapshotId: created ? snapshot : dataset.latest_snapshot_id, created, rowsStaged: count,
        rowsAdded: changes.added, rowsRemoved: changes.removed, rowCount, cursorMax, typeErrors,
      };
      if (created) {
        await snapshotsStore.insert(trx, {
          snapshot_id: snapshot, tenant_id: tenantId, dataset_ref: dataset.id, parent_snapshot_id: dataset.latest_snapshot_id,
          shared: dataset.shared, operation: request.mode, rows_staged: count, rows_added: changes.added,
          rows_removed: changes.removed, row_count: rowCount, summary: request.summary ?? {},
        });
        await datasetsStore.setLatest(trx, dataset.id, snapshot, rowCount);
        await core.events.emit(trx, tenantId, {
          type: SNAPSHOT_CREATED, source: EVENT_SOURCE,
          data: {
            dataset_id: datasetId, snapshot_id: snapshot, parent_snapshot_id: dataset.latest_snapshot_id, operation: request.mode,
            rows_added: changes.added, rows_removed: changes.removed, row_count: rowCount,
            producer: { kind: dataset.producer_kind, id: dataset.producer_id },
          },
        });
      }
      if (inTransaction) await inTransaction(trx, result);
      return { result, datasetRef: dataset.id, snapshotCount: dataset.snapshot_count + (created ? 1 : 0) };
    });
  };
}

// What the lakehouse exposes to other plugins (register's `lakehouse` dependency):
// the sources plugin lands streams through it, the transform and ontology
// plugins read and materialize through it. Others import only these types.
import type { Readable } from 'node:stream';
import type { GraphqlContext, TenantTransaction } from 'agent-platform/sdk';
import type { LakeColumn, LakeType } from './datasets/types.ts';

export type { LakeColumn, LakeType };

export type WriteMode = 'overwrite' | 'append' | 'append_dedup';

/** Who writes a dataset (shown with it; the read rule of derived datasets rests on the owner). */
export interface DatasetProducer {
  kind: 'source_stream' | 'transform' | 'pipeline' | 'sandbox' | 'registry' | string;
  id: string;
  name?: string;
}

export interface DatasetSpec {
  /** `<namespace>.<layer>.<table>`; the layer is the writing tenant's alias, or a shared layer when `shared`. */
  datasetId: string;
  /** The rows' properties and their types; new ones are added, a changed type widens the column to text. */
  columns: { name: string; type: LakeType }[];
  primaryKey?: string[];
  producer: DatasetProducer;
  /** Readable by every tenant (registry datasets, shared raw layers). */
  shared?: boolean;
}

/** Where a write's rows come from. */
export type WriteSource =
  /** Rows as objects keyed by property; values are coerced to their column's type (what does not fit becomes null and is counted). */
  | { kind: 'records'; batches: AsyncIterable<Record<string, unknown>[]> | Iterable<Record<string, unknown>[]> }
  /**
   * COPY output, the columns of `properties` in order: text format (tab-separated, \N for null, one line per row),
   * or with `format: 'binary'` PostgreSQL's binary COPY format, each field of exactly the lake type `types` names
   * (the types the dataset's columns have: ensureDataset returns them), which PostgreSQL parses for much less.
   */
  | { kind: 'copy'; properties: string[]; stream: Readable; format?: 'text' | 'binary'; types?: LakeType[] }
  /** A SELECT run in the write's tenant transaction (as the tenant role) whose output columns are `properties` in order. */
  | { kind: 'query'; sql: string; parameters?: unknown[]; properties: string[] };

export interface WriteRequest {
  mode: WriteMode;
  source: WriteSource;
  /** Required for append_dedup; with overwrite, unchanged rows keep their versions. */
  primaryKey?: string[];
  /** A property ordering versions of one key (append_dedup keeps the newest); its maximum is returned. */
  cursorField?: string | null;
  /** The source guarantees unique keys (a primary-key constraint upstream): no deduplication of the batch. */
  uniqueKeys?: boolean;
  /** Recorded on the snapshot (e.g. the sync run that made it). */
  summary?: Record<string, unknown>;
  /**
   * Runs in the write's transaction before the rows land: a transform enters
   * core.tenantSql there (the statement budget and the tenant's slot: the only
   * way tenant-written SQL may run) and tags the session so that a cancel can
   * find its backend.
   */
  beforeLanding?: (trx: TenantTransaction) => Promise<void>;
}

export interface WriteResult {
  datasetId: string;
  /** The snapshot the dataset is at after the write: a new one, or the previous one when nothing changed (decimal string). */
  snapshotId: string | null;
  /** Whether this write made a new snapshot. */
  created: boolean;
  rowsStaged: number;
  rowsAdded: number;
  rowsRemoved: number;
  rowCount: number;
  /** The cursor field's maximum over the rows written, as text (null without rows or cursor). */
  cursorMax: string | null;
  /** Values that did not fit their column's type and were stored as null (records only). */
  typeErrors: number;
}

export interface DatasetInfo {
  id: string;
  namespace: string;
  layer: string;
  table: string;
  /** The PostgreSQL relation holding its row versions: schema-qualified, quoted. */
  relation: string;
  shared: boolean;
  ownerTenant: boolean;
  producer: DatasetProducer;
  columns: LakeColumn[];
  primaryKey: string[];
  latestSnapshotId: string | null;
  rowCount: number;
}

export interface LakehouseApi {
  /** Parses and checks a dataset id: 400 DATASET_ID_INVALID when malformed. */
  parseDatasetId(datasetId: string): { namespace: string; layer: string; table: string };
  /** The id a tenant's dataset gets in a namespace: `<namespace>.<tenant>.<table segment of name>`. */
  datasetIdFor(namespace: string, tenantId: string, name: string): string;
  /**
   * The columns of rows a JSON Schema describes ({type: object, properties}):
   * integer → bigint, number → double (numeric with format decimal), boolean,
   * string → text (timestamptz, date or uuid by format), object/array → jsonb.
   */
  columnsOfSchema(schema: Record<string, unknown>): { name: string; type: LakeType }[];
  /** Creates the dataset's table (or adds new columns to it) and its registry entry. */
  ensureDataset(tenantId: string, spec: DatasetSpec): Promise<DatasetInfo>;
  /**
   * Writes one snapshot in one tenant transaction: rows land with COPY in a
   * staging table, then set-based statements close superseded versions and
   * insert new ones. `inTransaction` runs in that same transaction after the
   * rows (a sync's cursor and counters), so both commit or neither does.
   */
  write(tenantId: string, datasetId: string, request: WriteRequest,
    inTransaction?: (trx: TenantTransaction, result: WriteResult) => Promise<void>): Promise<WriteResult>;
  /**
   * A dataset the tenant may read under the read rule: 400 malformed, 403 not readable, 404 absent.
   * With `trx` (a transaction of that tenant the caller holds) it is read there, not on a connection of its own.
   */
  readable(tenantId: string, datasetId: string, trx?: TenantTransaction): Promise<DatasetInfo>;
  /**
   * SQL selecting the dataset's rows (its properties as columns) as of a
   * snapshot (latest by default), for a tenant transaction: row-level
   * security still applies.
   */
  asOf(dataset: DatasetInfo, snapshotId?: string): string;
  /**
   * For another plugin's GraphQL field of type `Dataset`: the dataset as the
   * lakehouse's resolvers read it, under the read rule (403 DATASET_FORBIDDEN
   * when not readable; null when absent). Opaque: return it as the field's value.
   */
  datasetNode(tenantId: string, datasetId: string): Promise<GraphqlNode | null>;
  /** For a GraphQL field of type `DatasetSnapshot`: a snapshot of a readable dataset, or null when either is absent (or vacuumed). */
  snapshotNode(tenantId: string, datasetId: string, snapshotId: string): Promise<GraphqlNode | null>;
  /**
   * The resolver of another plugin's `DatasetSnapshot` field (a run's or a
   * step's snapshot): snapshotNode as a member of the request's tenant,
   * batched per request; null without both ids.
   */
  snapshotField(context: GraphqlContext, datasetId: string | null, snapshotId: string | null): Promise<GraphqlNode | null> | null;
}

/** A value the lakehouse's own GraphQL types resolve; other plugins only pass it on. */
export type GraphqlNode = object;

// What this plugin exposes as `api` (what a plugin declaring it receives in register).
declare module '@hapi/hapi' {
  interface PluginProperties {
    lakehouse: { api: LakehouseApi };
  }
}

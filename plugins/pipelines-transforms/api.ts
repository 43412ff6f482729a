// What the transforms plugin exposes to other plugins
// (register's `pipelines-transforms` dependency): SQL analysis and review, the
// materialization every SQL step goes through (transforms, pipeline steps,
// sandbox runs), and transforms for the declarative apply. Fixed by the
// pipelines contract: others import only these types.
import type { TenantTransaction } from 'agent-platform/sdk';

export interface SqlAnalysis {
  ok: boolean;
  /** parse errors with 1-based line/column from the parser cursor, and rule violations */
  errors: { code: string; message: string; line?: number; column?: number }[];
  /** dataset ids the query reads (every referenced relation, resolved to a readable dataset) */
  inputs: string[];
  /** output columns inferred from the parse tree + catalog where possible (type 'unknown' when not inferable) */
  columns: { name: string; type: string }[];
}

export interface SqlFinding { rule: string; severity: 'error' | 'warning'; message: string; line?: number; column?: number }

export interface MaterializeRequest {
  sql: string;
  parameters?: Record<string, unknown>;
  /** 'derived' for products, 'sandbox' for sandbox runs (never writes derived/raw) */
  namespace: 'derived' | 'sandbox';
  table: string;
  materialization: 'table' | 'incremental';
  uniqueKey?: string[];
  rowLimit?: number;
  statementTimeoutMs?: number;
  producer: { kind: 'transform' | 'pipeline' | 'sandbox'; id: string; name?: string };
  /** lets a caller cancel (pg_cancel_backend of the running statement) */
  signal?: AbortSignal;
  /**
   * dataset id → the dataset read in its place (sandbox runs read earlier
   * steps' sandbox outputs). Matched on the parsed relation names, so every
   * spelling (`"derived"."acme"."t"`, `DERIVED.acme.t`) maps; the mapped
   * dataset goes through the same read rule.
   */
  relationMap?: Record<string, string>;
  /**
   * called once the statement's backend is known, before the rows land: its
   * pid and session tag (the `application_name` it carries while it runs), for
   * a cancel from another process (pg_cancel_backend of that pid, only while it
   * carries the tag). Throwing stops the materialization; nothing is written.
   * Not called on the embedded database (one session, held by the write).
   */
  onBackend?: (pid: number, tag: string) => Promise<void>;
}

export interface MaterializeResult {
  datasetId: string;
  snapshotId: string | null;
  rows: number;
  columns: { name: string; type: string }[];
  sampleRows: Record<string, unknown>[];
  durationMs: number;
}

export interface TransformRecord {
  id: string;
  name: string;
  sql: string;
  parameters: Record<string, unknown>;
  output_dataset: string;
  materialization: 'table' | 'incremental';
  unique_key: string[];
  status: string;
  inputs: string[];
}

/** A transform run as the api gives it (the REST view; the snapshot id as an exact decimal string). */
export interface TransformRunRecord {
  id: string;
  transform_id: string;
  orchestrator_run_id: string | null;
  pipeline_run_id: string | null;
  trigger: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  parameters: Record<string, unknown>;
  output_dataset: string;
  rows: number | null;
  snapshot_id: string | null;
  columns: { name: string; type: string }[] | null;
  error: { code: string; message: string } | null;
  cancel_requested: boolean;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  duration_ms: number | null;
}

/** A page of the tenant's transforms, ordered by id: pass `next` as `after` for the following page (null: the last page). */
export interface TransformPage {
  items: TransformRecord[];
  total: number;
  next: string | null;
}

export interface TransformsApi {
  analyzeSql(tenantId: string, sql: string, parameters?: Record<string, unknown>): Promise<SqlAnalysis>;
  /** lint findings for review-sql (parse errors with position, SELECT *, cartesian joins, non-deterministic functions, unreadable datasets) */
  reviewSql(tenantId: string, sql: string): Promise<{ analysis: SqlAnalysis; findings: SqlFinding[] }>;
  materialize(tenantId: string, request: MaterializeRequest): Promise<MaterializeResult>;
  /** with `trx` (a transaction of that tenant the caller holds), read there */
  getTransform(tenantId: string, id: string, trx?: TenantTransaction): Promise<TransformRecord | null>;
  findTransformByName(tenantId: string, name: string, trx?: TenantTransaction): Promise<TransformRecord | null>;
  /**
   * create/patch, each in a transaction of its own opened after the SQL was analyzed (same validation as REST);
   * not inside a caller's transaction: the analysis needs connections of its own
   */
  createTransform(tenantId: string, spec: Record<string, unknown>): Promise<TransformRecord>;
  patchTransform(tenantId: string, id: string, patch: Record<string, unknown>): Promise<TransformRecord>;
  /** the tenant's transforms (every status, as GET /transforms), `first` (1-500, default 100) after the id `after` */
  listTransforms(tenantId: string, page?: { first?: number; after?: string | null }): Promise<TransformPage>;
  /** a transform run of the tenant (GET /transform-runs/{id}); null when there is none (or the id is malformed) */
  getTransformRun(tenantId: string, runId: string): Promise<TransformRunRecord | null>;
  /** POST /transform-runs/{id}/cancel: a queued run is cancelled at once, a running one's statement is cancelled; 404 TRANSFORM_RUN_NOT_FOUND, 409 TRANSFORM_RUN_NOT_CANCELLABLE (Boom) */
  cancelTransformRun(tenantId: string, runId: string): Promise<TransformRunRecord>;
  /** run a transform now (a transform run row, events), as the schedule trigger does; returns the transform run id */
  runTransform(tenantId: string, id: string, trigger: { kind: 'manual' | 'schedule' | 'pipeline'; pipelineRunId?: string }): Promise<string>;
  /** a transform pattern of the library with its parameters' JSON Schema (GET /transform-patterns/{id}: the same for every tenant); null when there is none */
  getTransformPattern(id: string): Promise<TransformPatternRecord | null>;
}

export interface TransformPatternRecord {
  id: string;
  name: string;
  description: string;
  category: string;
  parametersSchema: Record<string, unknown>;
}

// What this plugin exposes as `api` (what a plugin declaring it receives in register).
declare module '@hapi/hapi' {
  interface PluginProperties {
    'pipelines-transforms': { api: TransformsApi };
  }
}

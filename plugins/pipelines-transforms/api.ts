// What the transforms plugin exposes to other plugins
// (server.plugins['pipelines-transforms'].api): SQL analysis and review, the
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

export interface TransformsApi {
  analyzeSql(tenantId: string, sql: string, parameters?: Record<string, unknown>): Promise<SqlAnalysis>;
  /** lint findings for review-sql (parse errors with position, SELECT *, cartesian joins, non-deterministic functions, unreadable datasets) */
  reviewSql(tenantId: string, sql: string): Promise<{ analysis: SqlAnalysis; findings: SqlFinding[] }>;
  materialize(tenantId: string, request: MaterializeRequest): Promise<MaterializeResult>;
  getTransform(tenantId: string, id: string): Promise<TransformRecord | null>;
  findTransformByName(tenantId: string, name: string): Promise<TransformRecord | null>;
  /** create/patch inside a caller's transaction (declarative apply); same validation as REST */
  createTransform(trx: TenantTransaction, tenantId: string, spec: Record<string, unknown>): Promise<TransformRecord>;
  patchTransform(trx: TenantTransaction, tenantId: string, id: string, patch: Record<string, unknown>): Promise<TransformRecord>;
  /** run a transform now (a transform run row, events), as the schedule trigger does; returns the transform run id */
  runTransform(tenantId: string, id: string, trigger: { kind: 'manual' | 'schedule' | 'pipeline'; pipelineRunId?: string }): Promise<string>;
}

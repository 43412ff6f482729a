// The part of the pipelines-transforms api (plugins/pipelines-transforms/api.ts,
// fixed by the integrators' contract) this plugin uses, written here so that
// it type-checks without that plugin: structurally the same types. The api is
// read from server.plugins['pipelines-transforms'] when used; absent, steps
// naming transforms and every run fail with TRANSFORMS_UNAVAILABLE.
export interface SqlAnalysisPort {
  ok: boolean;
  errors: { code: string; message: string; line?: number; column?: number }[];
  inputs: string[];
  columns: { name: string; type: string }[];
}

export interface MaterializeRequestPort {
  sql: string;
  parameters?: Record<string, unknown>;
  namespace: 'derived' | 'sandbox';
  table: string;
  materialization: 'table' | 'incremental';
  uniqueKey?: string[];
  rowLimit?: number;
  statementTimeoutMs?: number;
  producer: { kind: 'transform' | 'pipeline' | 'sandbox'; id: string; name?: string };
  signal?: AbortSignal;
}

export interface MaterializeResultPort {
  datasetId: string;
  snapshotId: string | null;
  rows: number;
  columns: { name: string; type: string }[];
  sampleRows: Record<string, unknown>[];
  durationMs: number;
}

export interface TransformRecordPort {
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

export interface TransformsPort {
  analyzeSql(tenantId: string, sql: string, parameters?: Record<string, unknown>): Promise<SqlAnalysisPort>;
  materialize(tenantId: string, request: MaterializeRequestPort): Promise<MaterializeResultPort>;
  getTransform(tenantId: string, id: string): Promise<TransformRecordPort | null>;
  findTransformByName(tenantId: string, name: string): Promise<TransformRecordPort | null>;
  runTransform(tenantId: string, id: string, trigger: { kind: 'manual' | 'schedule' | 'pipeline'; pipelineRunId?: string }): Promise<string>;
  /** Not in the fixed contract: used by GET /pipelines/available-transforms when the transforms plugin offers it. */
  listTransforms?(tenantId: string): Promise<TransformRecordPort[]>;
}

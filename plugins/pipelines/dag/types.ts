// A pipeline step as stored and as written in requests (and YAML apply docs).
export interface StepSpec {
  /** Unique in the pipeline; other steps name it in their inputs. */
  id: string;
  name?: string;
  /** A transform of the tenant (pipelines-transforms), by id or by name: its SQL, parameters and output dataset. */
  transform_id?: string;
  transform_name?: string;
  /** Inline SQL instead of a transform, written to `derived.<tenant>.<output>`. */
  sql?: string;
  output?: string;
  parameters?: Record<string, unknown>;
  /** Dataset ids (`raw.acme.orders`) or ids of other steps of the pipeline, whose outputs this step reads. */
  inputs: string[];
  materialization: 'table' | 'incremental';
  unique_key?: string[];
}

/** A step with its transform resolved: what runs and where it writes. */
export interface ResolvedStep {
  id: string;
  sql: string;
  parameters: Record<string, unknown>;
  /** The output dataset id (derived namespace). */
  output: string;
  inputs: string[];
  materialization: 'table' | 'incremental';
  uniqueKey: string[];
  /** The transform it runs, when it names one. */
  transformId: string | null;
}

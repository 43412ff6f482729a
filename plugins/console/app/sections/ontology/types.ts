// What the Ontology section reads from the ontology and identity plugins'
// REST API (plugins/ontology/README.md, plugins/identity/README.md).

export interface JsonSchemaObject {
  type?: string;
  properties?: Record<string, { type?: string | string[]; format?: string; description?: string; enum?: unknown[] }>;
  required?: string[];
}

export interface Relationship { name: string; target_type: string; cardinality: 'one' | 'many'; via: string }

/** An entity type's definition: what a version holds. */
export interface TypeDefinition {
  name: string;
  description: string | null;
  properties: JsonSchemaObject;
  keys: string[];
  relationships: Relationship[];
  carrier_types: string[];
}

export interface TypeVersion extends TypeDefinition { code: string; version: number; created_by: string | null; created_at: string }

export interface EntityType extends TypeVersion { current_version: number; deprecated: boolean; updated_at: string }

export interface BackingDataset {
  id: string; name: string; dataset_id: string; entity_type: string; entity_type_version: number | null;
  mappings: { column: string; property: string }[]; key_columns: string[]; identity_policy_id: string | null;
  applied_sync_spec_fingerprint: string | null; applied_snapshot_id_exact: string | null; updated_at: string;
}

export interface BackingHealth {
  status: 'healthy' | 'pending' | 'never_synced' | 'degraded' | 'failing';
  entity_count: number;
  /** Why a sync is pending: snapshot_changed, effective_spec_changed. */
  reasons: string[];
  /** Why it cannot sync (failing). */
  problem: string | null;
  latest_snapshot_id_exact: string | null;
}

export interface SyncRun {
  id: string; status: 'queued' | 'running' | 'succeeded' | 'skipped' | 'failed'; force: boolean;
  replay_reason: string | null; effective_spec_changed: boolean;
  attempted_sync_spec_fingerprint: string | null; applied_sync_spec_fingerprint: string | null;
  entity_type_version: number; snapshot_id_exact: string | null; rows_synced: number; is_terminal: boolean;
  error: string | null; created_at: string; started_at: string | null; finished_at: string | null;
  bulk_jobs?: { job_id: string; operation: string; submitted_count: number; completed_count: number }[];
}

export interface IdentityField { field: string; normalizers?: string[]; threshold?: number }
export interface IdentityRule { name: string; kind: 'exact' | 'normalized' | 'fuzzy'; fields: IdentityField[] }
export interface BlockingKey { field: string; normalizers?: string[]; prefix?: number }

export interface PolicyVersion {
  version: number; fingerprint: string; rules: IdentityRule[]; blocking_keys: BlockingKey[]; max_block_size: number;
  created_by: string | null; created_at: string;
}

export interface Policy extends PolicyVersion { id: string; name: string; description: string; updated_at: string }

export interface DryRunResult {
  policy_id: string; version: number; fingerprint: string; records: number;
  merges: { a: string; b: string; rule: string; score?: number }[];
  clusters: string[][];
  skipped_blocks: { key: string; size: number }[];
}

export interface Dataset { id: string; columns: { name: string }[]; primary_key: string[] }

export type List<T> = { items: T[]; next_cursor?: string | null; total?: number };

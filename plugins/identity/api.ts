// What the identity plugin exposes to other plugins (register's dependencies: `identity`):
// the ontology's backing-dataset syncs resolve entities with an identity
// policy's pinned version. Others import only these types.

import type { TenantTransaction } from 'agent-platform/sdk';

/** A field a rule or a blocking key reads from a record, with its normalizers (see matching/normalizers.ts). */
export interface IdentityField {
  field: string;
  /** 'case', 'accents', 'whitespace', 'phone' or 'phone:<country code>', 'email' or 'email:gmail' */
  normalizers?: string[];
  /** fuzzy rules only: pg_trgm similarity (0..1) the two values need; absent: the values must be equal */
  threshold?: number;
}

/**
 * One rule deciding that two records are one entity; a pair is reported with
 * the first rule (in policy order) that merged it.
 * - exact: every field equal as given (non-empty);
 * - normalized: every field equal after its normalizers (non-empty);
 * - fuzzy: every field with a threshold similar enough (pg_trgm), the others
 *   equal after normalization; candidates come from the blocking keys.
 */
export interface IdentityRule {
  name: string;
  kind: 'exact' | 'normalized' | 'fuzzy';
  fields: IdentityField[];
}

/** A blocking key: fuzzy rules compare only records sharing one (optionally its first `prefix` characters). */
export interface BlockingKey {
  field: string;
  normalizers?: string[];
  prefix?: number;
}

export interface IdentityPolicyVersion {
  /** the policy's id */
  id: string;
  version: number;
  /** sha-256 of the matching spec (rules, blocking keys, block size): equal fingerprints match alike */
  fingerprint: string;
  rules: IdentityRule[];
  blocking_keys: BlockingKey[];
  /** records in a block larger than this are not compared by fuzzy rules (reported as skipped) */
  max_block_size: number;
}

export interface IdentityRecord {
  ref: string;
  values: Record<string, unknown>;
}

export interface IdentityMatch {
  /** the merges (a spanning forest of the clusters), each with the rule that made it */
  pairs: { a: string; b: string; rule: string; score?: number }[];
  /** clusters of more than one record, refs in input order */
  clusters: string[][];
  /** blocks too large to compare with fuzzy rules: blocking key and size */
  skippedBlocks?: { key: string; size: number }[];
}

export interface IdentityApi {
  /** The current version, or the given one; null when the policy (or version) does not exist for the tenant or was deleted. */
  /** With `trx` (a transaction of that tenant the caller holds) it is read there. */
  getPolicy(tenantId: string, policyId: string, version?: number, trx?: TenantTransaction): Promise<IdentityPolicyVersion | null>;
  /** SQL expression normalizing a column for a normalized-field rule (case, accents, whitespace, phone, email); throws on an unknown normalizer. */
  normalizeSql(columnSql: string, normalizers: string[]): string;
  /** The same normalization in JavaScript (identical results). */
  normalize(value: unknown, normalizers: string[]): string | null;
  /** matches records of one tenant (a job's budget: IDENTITY_MATCH_TIMEOUT_SECONDS, past it 422 IDENTITY_MATCH_TIMEOUT); clusters with the rule that matched each pair */
  match(tenantId: string, policy: IdentityPolicyVersion, records: IdentityRecord[]): Promise<IdentityMatch>;
}

// What this plugin exposes as `api` (what a plugin declaring it receives in register).
declare module '@hapi/hapi' {
  interface PluginProperties {
    identity: { api: IdentityApi };
  }
}

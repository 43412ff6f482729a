// The effective spec of a backing dataset and its fingerprint:
// everything that changes the entities a sync writes, in canonical JSON
// (object keys sorted at every depth), hashed with SHA-256. Two specs that
// differ only in key order or in mapping order have one fingerprint.
import { createHash } from 'node:crypto';
import type { KeyNormalization } from './identity-keys.ts';
import type { Mapping } from '../store/backing-datasets.ts';

/** How entity keys are written (the JSON array of the key values, in key-column order): a change of it is a new output. */
export const KEY_FORMAT = 'json-array/1';

export interface EffectiveSpec {
  sync_contract_version: 2;
  key_format: string;
  dataset_id: string;
  entity_type: { code: string; version: number; keys: string[] };
  mappings: Mapping[];
  key_columns: string[];
  identity_policy: { id: string; version: number; fingerprint: string } | null;
  /**
   * With an identity policy only (absent otherwise, so the fingerprints of
   * backing datasets without one are unchanged): the key columns its
   * normalized rules shape (sync/identity-keys.ts). Part of the run's spec, so a
   * run replays with exactly the normalization it attempted.
   */
  key_normalization?: KeyNormalization[];
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function effectiveSpec(input: Omit<EffectiveSpec, 'sync_contract_version' | 'key_format' | 'mappings'> & { mappings: Mapping[] }): EffectiveSpec {
  const mappings = [...input.mappings].sort((a, b) => (a.property < b.property ? -1 : a.property > b.property ? 1 : 0));
  return { sync_contract_version: 2, key_format: KEY_FORMAT, ...input, mappings };
}

export function fingerprintOf(spec: EffectiveSpec): string {
  return `sha256:${createHash('sha256').update(canonicalJson(spec)).digest('hex')}`;
}

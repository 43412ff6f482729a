// The matching spec of an identity policy version: checked beyond its joi
// shape (normalizer names, fuzzy rules that could not be blocked), put in a
// canonical form, and fingerprinted so that equal specs have equal
// fingerprints whatever the key order or normalizer order they were sent in.
import { createHash } from 'node:crypto';
import { badRequest } from 'agent-platform/sdk';
import type { BlockingKey, IdentityField, IdentityRule } from '../api.ts';
import { canonicalNormalizers } from './normalizers.ts';

export interface PolicySpec {
  rules: IdentityRule[];
  blocking_keys: BlockingKey[];
  max_block_size: number;
}

function canonicalField(field: IdentityField, kind: IdentityRule['kind']): IdentityField {
  const normalizers = kind === 'exact' ? [] : canonicalNormalizers(field.normalizers);
  if (kind === 'exact' && field.normalizers?.length) {
    throw badRequest(`Field ${field.field} of an exact rule takes no normalizers: use a normalized rule`, 'IDENTITY_POLICY_INVALID');
  }
  if (kind !== 'fuzzy' && field.threshold !== undefined) {
    throw badRequest(`Field ${field.field}: only fuzzy rules take a threshold`, 'IDENTITY_POLICY_INVALID');
  }
  return { field: field.field, normalizers, ...(field.threshold !== undefined ? { threshold: field.threshold } : {}) };
}

/** Checks a spec and returns its canonical form (400 IDENTITY_POLICY_INVALID / IDENTITY_NORMALIZER_UNKNOWN). */
export function canonicalSpec(input: { rules: IdentityRule[]; blocking_keys?: BlockingKey[]; max_block_size?: number }, defaultBlockSize: number): PolicySpec {
  const names = new Set<string>();
  const rules = input.rules.map((rule) => {
    if (names.has(rule.name)) throw badRequest(`Two rules are named ${rule.name}`, 'IDENTITY_POLICY_INVALID');
    names.add(rule.name);
    return { name: rule.name, kind: rule.kind, fields: rule.fields.map((f) => canonicalField(f, rule.kind)) };
  });
  const blocking = (input.blocking_keys ?? []).map((key) => ({
    field: key.field, normalizers: canonicalNormalizers(key.normalizers), ...(key.prefix !== undefined ? { prefix: key.prefix } : {}),
  }));
  for (const rule of rules) {
    if (rule.kind !== 'fuzzy') continue;
    if (!rule.fields.some((f) => f.threshold !== undefined)) {
      throw badRequest(`Fuzzy rule ${rule.name} needs a field with a threshold`, 'IDENTITY_POLICY_INVALID');
    }
    // Without a block every record would be compared with every other one.
    if (!rule.fields.some((f) => f.threshold === undefined) && blocking.length === 0) {
      throw badRequest(`Fuzzy rule ${rule.name} needs blocking keys (or a field without threshold that must be equal), so matching stays sub-quadratic`, 'IDENTITY_POLICY_UNBLOCKED');
    }
  }
  return { rules, blocking_keys: blocking, max_block_size: input.max_block_size ?? defaultBlockSize };
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** sha-256 of the canonical spec's JSON with sorted keys (rule order matters: it decides which rule a pair reports). */
export function fingerprintOf(spec: PolicySpec): string {
  return createHash('sha256').update(JSON.stringify(sorted(spec))).digest('hex');
}

// Validation of payloads against library and registry schemas with the
// platform's Ajv (core/json-schema.ts through the SDK: draft-07, `pattern`s
// on the linear-time engine, no shared $id registry). Compiled validators are
// kept by schema fingerprint in a small bounded cache; an evicted one is
// removed from Ajv's own cache too, so tenants' schemas cannot grow memory.
import { createHash } from 'node:crypto';
import { badRequest, createAjv } from 'agent-platform/sdk';
import type { ValidateFunction } from 'ajv';

const ajv = createAjv();
const MAX_CACHED = 200;
const cache = new Map<string, { schema: object; validate: ValidateFunction }>();

export interface ValidationError {
  /** JSON pointer of the offending value (for a missing property: where it should be) */
  path: string;
  message: string;
  keyword: string;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** sha-256 of the schema's JSON with sorted keys. */
export const schemaFingerprint = (schema: object) => createHash('sha256').update(JSON.stringify(sorted(schema))).digest('hex');

function compiled(schema: object): ValidateFunction {
  const key = schemaFingerprint(schema);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit.validate;
  }
  const copy = structuredClone(schema);
  const validate = ajv.compile(copy);
  cache.set(key, { schema: copy, validate });
  if (cache.size > MAX_CACHED) {
    const [oldestKey, oldest] = cache.entries().next().value!;
    cache.delete(oldestKey);
    ajv.removeSchema(oldest.schema);
  }
  return validate;
}

/** Checks that a value is a usable JSON Schema (400 SCHEMA_INVALID, with Ajv's reason). */
export function checkSchema(schema: object): void {
  if (!ajv.validateSchema(schema)) {
    const first = ajv.errors?.[0];
    throw badRequest(`Not a valid JSON Schema (draft-07): ${first ? `${first.instancePath || '/'} ${first.message}` : 'invalid'}`, 'SCHEMA_INVALID');
  }
  try {
    compiled(schema);
  } catch (err) {
    throw badRequest(`Not a usable JSON Schema: ${(err as Error).message.slice(0, 300)}`, 'SCHEMA_INVALID');
  }
}

/** Validates a payload: every error with the JSON pointer of its value. */
export function validatePayload(schema: object, data: unknown): { valid: boolean; errors: ValidationError[] } {
  const validate = compiled(schema);
  if (validate(data)) return { valid: true, errors: [] };
  const errors = (validate.errors ?? []).slice(0, 100).map((e) => {
    const missing = e.keyword === 'required' ? `/${String((e.params as { missingProperty: string }).missingProperty).replace(/~/g, '~0').replace(/\//g, '~1')}` : '';
    const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : '';
    return { path: `${e.instancePath}${missing}`, message: `${e.message ?? 'is invalid'}${extra}`, keyword: e.keyword };
  });
  return { valid: false, errors };
}

// Warnings for emitted events (core-platform 2.6): a type that is neither
// built-in nor one of the tenant's custom types, or data that does not conform
// to its custom type's JSON Schema. Warnings never block emission. A tenant's
// custom types are cached for a few seconds, so the emit path does not pay a
// query for advice; a change made in this process is seen at once.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { TenantTransaction } from '../../core/db/tenant.ts';
import { isBuiltinEventType } from './builtin-types.ts';
import { customTypesStore } from './store/custom-types.ts';

const ajv = new Ajv({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv) => void)(ajv);

/** Why a JSON Schema cannot be used, or undefined when it compiles. */
export function schemaProblem(schema: Record<string, unknown>): string | undefined {
  try {
    ajv.compile(schema);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** What a value violates in a schema, as short messages ("/amount must be number"). */
export function schemaViolations(schema: Record<string, unknown>, value: unknown): string[] {
  const validate = ajv.compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
}

interface TenantTypes {
  expires: number;
  /** Custom type → its validator (null: no schema). */
  types: Map<string, ValidateFunction | null>;
}

export function createTypeRegistry(ttlMs = 5_000) {
  const cache = new Map<string, TenantTypes>();

  async function typesOf(trx: TenantTransaction, tenantId: string): Promise<TenantTypes> {
    const cached = cache.get(tenantId);
    if (cached && cached.expires > Date.now()) return cached;
    const types = new Map<string, ValidateFunction | null>();
    for (const row of await customTypesStore.all(trx)) {
      let validate: ValidateFunction | null = null;
      try {
        validate = row.schema ? ajv.compile(row.schema) : null;
      } catch {
        validate = null; // stored before it stopped compiling: no schema advice
      }
      types.set(row.type, validate);
    }
    const fresh = { expires: Date.now() + ttlMs, types };
    cache.set(tenantId, fresh);
    return fresh;
  }

  return {
    async warnings(trx: TenantTransaction, tenantId: string, type: string, data: Record<string, unknown>): Promise<string[]> {
      if (isBuiltinEventType(type)) return [];
      const { types } = await typesOf(trx, tenantId);
      if (!types.has(type)) return [`"${type}" is neither a built-in nor a registered custom event type`];
      const validate = types.get(type);
      if (!validate || validate(data)) return [];
      return (validate.errors ?? []).map((error) => `data${error.instancePath} ${error.message ?? 'is invalid'} (schema of ${type})`);
    },
    forget(tenantId: string): void {
      cache.delete(tenantId);
    },
  };
}

export type TypeRegistry = ReturnType<typeof createTypeRegistry>;

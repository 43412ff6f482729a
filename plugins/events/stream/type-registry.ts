// Warnings for emitted events (core-platform 2.6): a type that is neither
// registered by a plugin (core.events.registerTypes: the built-in types) nor
// one of the tenant's custom types, or data that does not conform to its
// type's JSON Schema. Warnings never block emission. A tenant's
// custom types are re-read every few seconds, so the emit path does not pay a
// query for advice; a change is seen at once in every process (channel
// `events.types` of core.invalidation; without it, at the next re-read).
//
// Schemas are tenant-written: Ajv comes from core/json-schema.ts (patterns on
// RE2, linear time). A compiled validator is kept per (tenant, type,
// updated_at) and reused across re-reads; a replaced or deleted type's schema
// is removed from Ajv, whose cache would otherwise keep every schema object
// ever compiled (one per re-read).
import type { ValidateFunction } from 'ajv';
import { cachedSchemaCount, createAjv, type EventTypeCatalog, type InvalidationApi, type RegisteredEventType, type TenantTransaction } from 'agent-platform/sdk';
import { customTypesStore } from '../store/custom-types.ts';

const ajv = createAjv();
/** Tenants whose compiled types are kept at once (least recently read go first). */
const MAX_TENANTS = 1000;

/** Compiles a schema for one use, then removes it from Ajv again. */
function once<T>(schema: Record<string, unknown>, use: (validate: ValidateFunction) => T): T {
  try {
    return use(ajv.compile(schema));
  } finally {
    ajv.removeSchema(schema); // also after a failed compile: Ajv caches the schema before compiling it
  }
}

/** Why a JSON Schema cannot be used, or undefined when it compiles. */
export function schemaProblem(schema: Record<string, unknown>): string | undefined {
  try {
    return once(schema, () => undefined);
  } catch (err) {
    return (err as Error).message;
  }
}

/** What a value violates in a schema, as short messages ("/amount must be number"). */
export function schemaViolations(schema: Record<string, unknown>, value: unknown): string[] {
  return once(schema, (validate) => {
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
  });
}

/** Schemas compiled into the shared Ajv instance now (bounded: see createTypeRegistry). */
export function compiledSchemaCount(): number {
  return cachedSchemaCount(ajv);
}

interface CompiledType {
  /** The row's updated_at: a new value means a new schema. */
  stamp: string;
  /** The object compiled (the key of Ajv's cache); null without a schema. */
  schema: Record<string, unknown> | null;
  /** null: no schema, or one that no longer compiles (no schema advice). */
  validate: ValidateFunction | null;
}

interface TenantTypes {
  expires: number;
  types: Map<string, CompiledType>;
}

/** updated_at, and the schema's text: two updates within one millisecond still differ. */
const stampOf = (updatedAt: unknown, schema: unknown) =>
  `${updatedAt instanceof Date ? updatedAt.toISOString() : String(updatedAt)}|${JSON.stringify(schema)}`;

function release(entry: CompiledType): void {
  if (entry.schema) ajv.removeSchema(entry.schema);
}

function compile(schema: Record<string, unknown> | null, stamp: string): CompiledType {
  if (!schema) return { stamp, schema: null, validate: null };
  try {
    return { stamp, schema, validate: ajv.compile(schema) };
  } catch {
    ajv.removeSchema(schema);
    return { stamp, schema: null, validate: null }; // stored before it stopped compiling: no schema advice
  }
}

const TYPES_CHANNEL = 'events.types';

export function createTypeRegistry(catalog: EventTypeCatalog, invalidation: InvalidationApi, ttlMs = 5_000) {
  /** By tenant; Map order is recency (a read re-inserts the tenant). */
  const cache = new Map<string, TenantTypes>();
  /** Registered types' schemas, compiled on first use (plugin-written: they stay for the process's life). */
  const registeredValidators = new Map<string, ValidateFunction | null>();

  /** Re-read the tenant's types on its next emit (unchanged ones stay compiled). */
  function forget(tenantId: string): void {
    const cached = cache.get(tenantId);
    if (cached) cached.expires = 0;
  }
  invalidation.subscribe(TYPES_CHANNEL, {
    message: forget,
    missed: () => {
      for (const tenant of cache.values()) tenant.expires = 0;
    },
  });

  function registeredValidator(entry: RegisteredEventType): ValidateFunction | null {
    if (!registeredValidators.has(entry.type)) registeredValidators.set(entry.type, compile(entry.schema ?? null, '').validate);
    return registeredValidators.get(entry.type)!;
  }

  function violations(validate: ValidateFunction | null, type: string, data: Record<string, unknown>): string[] {
    if (!validate || validate(data)) return [];
    return (validate.errors ?? []).map((error) => `data${error.instancePath} ${error.message ?? 'is invalid'} (schema of ${type})`);
  }

  async function typesOf(trx: TenantTransaction, tenantId: string): Promise<TenantTypes> {
    const cached = cache.get(tenantId);
    if (cached && cached.expires > Date.now()) return cached;
    const previous = cached?.types ?? new Map<string, CompiledType>();
    const types = new Map<string, CompiledType>();
    for (const row of await customTypesStore.all(trx)) {
      const stamp = stampOf(row.updated_at, row.schema);
      const kept = previous.get(row.type);
      if (kept && kept.stamp === stamp) {
        types.set(row.type, kept);
        previous.delete(row.type);
      } else {
        types.set(row.type, compile(row.schema as Record<string, unknown> | null, stamp));
      }
    }
    for (const gone of previous.values()) release(gone); // replaced or deleted types
    const fresh = { expires: Date.now() + ttlMs, types };
    const concurrent = cache.get(tenantId);
    if (concurrent && concurrent !== cached) {
      // Another read of this tenant finished first: what it compiled and we do not keep goes.
      for (const [type, entry] of concurrent.types) if (types.get(type) !== entry) release(entry);
    }
    cache.delete(tenantId);
    cache.set(tenantId, fresh);
    if (cache.size > MAX_TENANTS) {
      const [oldestId, oldest] = cache.entries().next().value!;
      cache.delete(oldestId);
      for (const entry of oldest.types.values()) release(entry);
    }
    return fresh;
  }

  return {
    async warnings(trx: TenantTransaction, tenantId: string, type: string, data: Record<string, unknown>): Promise<string[]> {
      const registered = catalog.registeredType(type);
      if (registered) return violations(registeredValidator(registered), type, data);
      const { types } = await typesOf(trx, tenantId);
      const found = types.get(type);
      if (!found) return [`"${type}" is neither a built-in nor a registered custom event type`];
      return violations(found.validate, type, data);
    },
    /** The plugin-registered type of this name, if any (custom types may not take it). */
    registered: (type: string) => catalog.registeredType(type),
    /** Every plugin-registered type, in registration order. */
    allRegistered: () => catalog.registeredTypes(),
    /** The tenant's types changed (committed): every process re-reads them on its next emit. */
    async changed(tenantId: string): Promise<void> {
      forget(tenantId);
      await invalidation.publish(TYPES_CHANNEL, tenantId);
    },
    /** Compiled validators held (for tests: bounded by the types that exist). */
    size(): number {
      let n = 0;
      for (const tenant of cache.values()) n += tenant.types.size;
      return n;
    },
  };
}

export type TypeRegistry = ReturnType<typeof createTypeRegistry>;

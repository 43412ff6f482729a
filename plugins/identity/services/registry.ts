// The tenant schema registry: subjects with
// immutable versions. Registering a schema equal to a subject's latest one
// (same fingerprint) changes nothing; a different one is the next version.
// Schemas come from tenants (register, bulk-register), from a readable
// dataset's columns (discover-and-register, through the lakehouse api), or
// from the built-in libraries (sync-catalog, idempotent).
import { badRequest, conflict, type KeysetPage, notFound, type TenantTransaction } from 'agent-platform/sdk';
import type { LakeColumn } from '../../lakehouse/api.ts';
import type { IdentityContext } from './context.ts';
import { ALL_SCHEMAS, LIBRARIES } from '../library/index.ts';
import { registryStore, type RegistryFilter, type RegistryRow } from '../store/registry.ts';
import type { RegistrySource } from '../store/tables.ts';
import { checkSchema, schemaFingerprint, validatePayload } from '../validation/validator.ts';

export interface RegisterInput {
  subject: string;
  domain?: string;
  description?: string;
  schema: Record<string, unknown>;
}

export const registryView = (row: RegistryRow) => ({
  id: row.id, subject: row.subject, version: row.version, domain: row.domain, description: row.description, schema: row.schema,
  fingerprint: row.fingerprint, source: row.source, dataset_id: row.dataset_id, created_by: row.created_by, created_at: row.created_at,
});

const JSON_TYPES: Record<string, Record<string, unknown>> = {
  text: { type: 'string' }, bigint: { type: 'integer' }, double: { type: 'number' }, numeric: { type: 'number' }, boolean: { type: 'boolean' },
  timestamptz: { type: 'string', format: 'date-time' }, date: { type: 'string', format: 'date' }, uuid: { type: 'string', format: 'uuid' },
  jsonb: { type: ['object', 'array', 'string', 'number', 'boolean'] },
};

/** The JSON Schema of a dataset's rows: one property per column (nullable unless a key column), its keys required. */
export function schemaOfColumns(title: string, columns: LakeColumn[], primaryKey: string[]): Record<string, unknown> {
  const properties = Object.fromEntries(columns.map((c) => {
    const base = JSON_TYPES[c.type] ?? {};
    if (primaryKey.includes(c.name)) return [c.name, base];
    const types = Array.isArray(base.type) ? [...(base.type as string[]), 'null'] : [base.type, 'null'];
    return [c.name, { ...base, type: types }];
  }));
  return { $schema: 'http://json-schema.org/draft-07/schema#', title, type: 'object', properties, required: primaryKey };
}

export function createRegistryService(context: IdentityContext) {
  const { core } = context;

  async function registerIn(trx: TenantTransaction, tenantId: string, createdBy: string | null, input: RegisterInput, source: RegistrySource, datasetId: string | null = null) {
    checkSchema(input.schema);
    const fingerprint = schemaFingerprint(input.schema);
    const latest = await registryStore.latestOf(trx, input.subject);
    if (latest && latest.fingerprint === fingerprint) return { created: false, entry: registryView(latest) };
    const row = await registryStore.insert(trx, tenantId, {
      subject: input.subject, version: (latest?.version ?? 0) + 1, domain: input.domain ?? latest?.domain ?? null,
      description: input.description ?? latest?.description ?? '', schema: input.schema, fingerprint, source, dataset_id: datasetId, created_by: createdBy,
    }).catch((err: { code?: string }) => {
      // Two registrations of one subject at once: the unique version decides, the loser retries.
      throw err.code === '23505' ? conflict(`Subject ${input.subject} was registered concurrently: retry`, 'SCHEMA_REGISTRY_CONFLICT') : err;
    });
    return { created: true, entry: registryView(row) };
  }

  const register = (tenantId: string, createdBy: string, input: RegisterInput) =>
    core.withTenant(tenantId, async (trx) => {
      const { created, entry } = await registerIn(trx, tenantId, createdBy, input, 'registered');
      return { ...entry, created };
    });

  return {
    register,
    /** All or nothing: every schema is checked before any is stored. */
    bulkRegister: (tenantId: string, createdBy: string, inputs: RegisterInput[]) => {
      const subjects = new Set(inputs.map((i) => i.subject));
      if (subjects.size !== inputs.length) throw badRequest('A subject is listed twice', 'SCHEMA_SUBJECT_DUPLICATE');
      inputs.forEach((input, i) => {
        try {
          checkSchema(input.schema);
        } catch (err) {
          throw badRequest(`schemas[${i}] (${input.subject}): ${(err as Error).message}`, 'SCHEMA_INVALID');
        }
      });
      return core.withTenant(tenantId, async (trx) => {
        const items = [];
        for (const input of inputs) {
          const { created, entry } = await registerIn(trx, tenantId, createdBy, input, 'registered');
          items.push({ subject: entry.subject, version: entry.version, fingerprint: entry.fingerprint, created });
        }
        return { items, created: items.filter((i) => i.created).length, unchanged: items.filter((i) => !i.created).length };
      });
    },
    /** Infers a schema from a dataset the tenant may read (its columns and key) and registers it. */
    async discoverAndRegister(tenantId: string, createdBy: string, input: { dataset_id: string; subject?: string; domain?: string; description?: string }) {
      const dataset = await context.lake().readable(tenantId, input.dataset_id);
      const schema = schemaOfColumns(dataset.id, dataset.columns, dataset.primaryKey);
      return core.withTenant(tenantId, async (trx) => {
        const { created, entry } = await registerIn(trx, tenantId, createdBy, {
          subject: input.subject ?? dataset.id, domain: input.domain, description: input.description ?? `Rows of dataset ${dataset.id}`, schema,
        }, 'discovered', dataset.id);
        return { ...entry, created };
      });
    },
    /** Copies the built-in libraries' schemas in (subject = full id); run again, it changes nothing. */
    syncCatalog: (tenantId: string, createdBy: string, libraryId?: string) => {
      if (libraryId && !LIBRARIES.some((l) => l.id === libraryId)) throw notFound(`No schema library "${libraryId}"`, 'SCHEMA_LIBRARY_NOT_FOUND');
      return core.withTenant(tenantId, async (trx) => {
        const counts = { added: 0, updated: 0, unchanged: 0 };
        for (const s of ALL_SCHEMAS.filter((x) => !libraryId || x.library.id === libraryId)) {
          const { created, entry } = await registerIn(trx, tenantId, createdBy, {
            subject: s.fullId, domain: s.domain.id, description: s.schema.description, schema: s.schema.schema,
          }, 'library');
          counts[!created ? 'unchanged' : entry.version === 1 ? 'added' : 'updated'] += 1;
        }
        return counts;
      });
    },
    list: (tenantId: string, filter: RegistryFilter, page: { limit: number; offset: number }) => core.withTenant(tenantId, async (trx) => ({
      items: (await registryStore.list(trx, filter, page)).map(registryView), total: await registryStore.count(trx, filter), ...page,
    })),
    /** A keyset page by subject (GraphQL). */
    page: (tenantId: string, filter: RegistryFilter, page: KeysetPage<string>) => core.withTenant(tenantId, async (trx) =>
      (await registryStore.page(trx, filter, page)).map(registryView)),
    count: (tenantId: string, filter: RegistryFilter) => core.withTenant(tenantId, (trx) => registryStore.count(trx, filter)),
    search: (tenantId: string, query: { q: string; limit: number } & RegistryFilter) => core.withTenant(tenantId, async (trx) => ({
      items: (await registryStore.search(trx, query.q, query, query.limit)).map((row) => ({ ...registryView(row), score: Number(row.score) })),
    })),
    /** Validates a payload against a subject's version (latest by default). */
    validate: (tenantId: string, input: { subject: string; version?: number; data: unknown }) => core.withTenant(tenantId, async (trx) => {
      const row = input.version ? await registryStore.version(trx, input.subject, input.version) : await registryStore.latestOf(trx, input.subject);
      if (!row) throw notFound(`No registered schema ${input.subject}${input.version ? ` version ${input.version}` : ''}`, 'SCHEMA_NOT_FOUND');
      return { subject: row.subject, version: row.version, ...validatePayload(row.schema, input.data) };
    }),
  };
}

export type RegistryService = ReturnType<typeof createRegistryService>;

// Transforms: create (REST, the SQL library,
// patterns, the declarative apply), read, patch, hydrate, archive or delete.
// Every SQL change is analyzed: statement rules, allowlist and the read rule
// refuse it (400); an input dataset that does not exist yet is recorded
// (analysis_errors) so that a transform can be declared before its source
// lands. Hard delete removes the runs, generic runs, artifacts and schedule
// it triggered (cascade); archive keeps them.
import { badRequest, conflict, isUuid, type KeysetPage, notFound, Joi, type TenantTransaction } from 'agent-platform/sdk';
import type { TransformRecord } from '../api.ts';
import type { TransformsContext } from './context.ts';
import { transformCreate, transformPatch } from '../schemas.ts';
import { runsStore } from '../store/runs.ts';
import { transformsStore, type TransformRow, type TransformValues } from '../store/transforms.ts';

/** Analysis errors a transform may be saved with: its inputs may land later. */
const TOLERATED = new Set(['DATASET_NOT_FOUND']);

export function transformView(row: TransformRow) {
  return {
    id: row.id, name: row.name, description: row.description, sql: row.sql, parameters: row.parameters,
    output_dataset: row.output_dataset, materialization: row.materialization, unique_key: row.unique_key, status: row.status,
    inputs: row.inputs, columns: row.columns, analysis_errors: row.analysis_errors, hydrated_at: row.hydrated_at, origin: row.origin,
    created_by: row.created_by, created_at: row.created_at, updated_at: row.updated_at,
  };
}

export const recordOf = (row: TransformRow): TransformRecord => ({
  id: row.id, name: row.name, sql: row.sql, parameters: row.parameters, output_dataset: row.output_dataset,
  materialization: row.materialization, unique_key: row.unique_key, status: row.status, inputs: row.inputs,
});

function validate<T>(schema: Joi.ObjectSchema, value: unknown): T {
  const { error, value: valid } = schema.validate(value, { abortEarly: false });
  if (error) throw badRequest(error.details.map((d) => d.message).join('; '), 'VALIDATION_FAILED');
  return valid as T;
}

/** A validated patch; `basis` and `analysis` when it changes the SQL or its parameters. */
interface PreparedPatch {
  id: string;
  input: Partial<TransformValues>;
  basis?: { sql: string; parameters: Record<string, unknown> };
  analysis?: Pick<TransformValues, 'inputs' | 'columns' | 'analysis_errors'>;
}

export function createTransformService(context: TransformsContext) {
  const { core, lake, analyzer } = context;

  function outputDatasetOf(tenantId: string, name: string, given: string | undefined): string {
    if (!given) return lake().datasetIdFor('derived', tenantId, name);
    const id = given.includes('.') ? given : `derived.${tenantId}.${given}`;
    const parsed = lake().parseDatasetId(id);
    if (parsed.namespace !== 'derived' || parsed.layer !== tenantId) {
      throw badRequest(`output_dataset must be derived.${tenantId}.<table>`, 'OUTPUT_DATASET_INVALID');
    }
    return id;
  }

  /** Analyzes the SQL: refuses what may never run, keeps lineage and schema. */
  async function analyzed(tenantId: string, sql: string, parameters: Record<string, unknown>) {
    const { analysis } = await analyzer.compile(tenantId, sql, parameters);
    const refused = analysis.errors.filter((error) => !TOLERATED.has(error.code));
    if (refused.length > 0) {
      const error = badRequest(`The SQL is refused: ${refused.map((e) => e.message).join('; ')}`.slice(0, 2000), refused[0]!.code);
      (error.output.payload as Record<string, unknown>).errors = refused;
      throw error;
    }
    return { inputs: analysis.inputs, columns: analysis.columns, analysis_errors: analysis.errors };
  }

  function checkKey(materialization: string, uniqueKey: string[]) {
    if (materialization === 'incremental' && uniqueKey.length === 0) throw badRequest('incremental materialization needs unique_key', 'UNIQUE_KEY_REQUIRED');
  }

  async function find(trx: TenantTransaction, id: string, lock = false): Promise<TransformRow> {
    const row = await transformsStore.find(trx, id, lock);
    if (!row) throw notFound(`Transform ${id} does not exist`, 'TRANSFORM_NOT_FOUND');
    return row;
  }

  /** A create spec checked and analyzed (no write): what the row will hold. */
  async function prepare(tenantId: string, spec: unknown, origin: Record<string, unknown> | null = null): Promise<TransformValues> {
    const input = validate<{ name: string; description?: string; sql: string; parameters?: Record<string, unknown>; output_dataset?: string; materialization: 'table' | 'incremental'; unique_key?: string[]; status?: 'active' | 'archived' }>(transformCreate, spec);
    const values: TransformValues = {
      name: input.name, description: input.description ?? '', sql: input.sql, parameters: input.parameters ?? {},
      output_dataset: outputDatasetOf(tenantId, input.name, input.output_dataset), materialization: input.materialization,
      unique_key: input.unique_key ?? [], status: input.status ?? 'active', origin,
      ...(await analyzed(tenantId, input.sql, input.parameters ?? {})),
    };
    checkKey(values.materialization, values.unique_key);
    return values;
  }

  // Analysis reads datasets and describes the query in transactions of its own,
  // so it runs before the write's transaction opens (prepare, preparePatch):
  // never a second connection while that one is held (core/db/connection-guard.ts).

  const inHeldOrOwn = <T>(tenantId: string, held: TenantTransaction | undefined, work: (trx: TenantTransaction) => Promise<T>) =>
    (held ? work(held) : core.withTenant(tenantId, work));

  /** Writes a prepared create in the caller's transaction. */
  async function create(trx: TenantTransaction, tenantId: string, values: TransformValues, createdBy: string | null) {
    if (await transformsStore.findByName(trx, values.name)) throw conflict(`A transform named ${values.name} exists`, 'TRANSFORM_NAME_TAKEN');
    return transformsStore.insert(trx, tenantId, values, createdBy);
  }

  /** A patch checked and, when it changes the SQL or its parameters, analyzed against the transform as it is now (no write). */
  async function preparePatch(tenantId: string, id: string, body: unknown): Promise<PreparedPatch> {
    const input = validate<Partial<TransformValues>>(transformPatch, body);
    if (input.sql === undefined && input.parameters === undefined) return { id, input };
    const row = await core.withTenant(tenantId, (trx) => find(trx, id));
    const basis = { sql: input.sql ?? row.sql, parameters: input.parameters ?? row.parameters };
    return { id, input, basis, analysis: await analyzed(tenantId, basis.sql, basis.parameters) };
  }

  /** Writes a prepared patch in the caller's transaction; 409 when the SQL it was analyzed against changed meanwhile. */
  async function patch(trx: TenantTransaction, tenantId: string, prepared: PreparedPatch) {
    const { id, input } = prepared;
    const row = await find(trx, id, true);
    const next = { ...row, ...input };
    const changes: Partial<TransformValues> & { hydrated_at?: Date } = { ...input };
    if (input.output_dataset !== undefined) changes.output_dataset = outputDatasetOf(tenantId, next.name, input.output_dataset);
    if (prepared.basis) {
      if (next.sql !== prepared.basis.sql || JSON.stringify(next.parameters) !== JSON.stringify(prepared.basis.parameters)) {
        throw conflict(`Transform ${id} changed while this change was analyzed: send it again`, 'TRANSFORM_CHANGED');
      }
      Object.assign(changes, prepared.analysis, { hydrated_at: new Date() });
    }
    checkKey(next.materialization, next.unique_key);
    if (input.name !== undefined && input.name !== row.name && (await transformsStore.findByName(trx, input.name))) {
      throw conflict(`A transform named ${input.name} exists`, 'TRANSFORM_NAME_TAKEN');
    }
    return transformsStore.update(trx, id, changes);
  }

  return {
    find,
    prepare,
    create,
    preparePatch,
    patch,

    list: (tenantId: string, filter: { status?: string; limit: number; offset: number }) => core.withTenant(tenantId, async (trx) => ({
      items: (await transformsStore.list(trx, filter)).map(transformView), total: await transformsStore.count(trx, filter), limit: filter.limit, offset: filter.offset,
    })),

    /** A keyset page of transforms by id (GraphQL; see transformsStore.page). */
    page: (tenantId: string, page: KeysetPage<string>) => core.withTenant(tenantId, (trx) => transformsStore.page(trx, page)),

    count: (tenantId: string) => core.withTenant(tenantId, (trx) => transformsStore.count(trx, {})),

    /** The transforms of these ids, in their order (undefined where absent). */
    findMany: (tenantId: string, ids: readonly string[]) => core.withTenant(tenantId, async (trx) => {
      const rows = new Map((await transformsStore.findMany(trx, [...new Set(ids)])).map((row) => [row.id, row]));
      return ids.map((id) => rows.get(id));
    }),

    /** api.listTransforms: records by id after a cursor (a malformed cursor is a 400). */
    listRecords: async (tenantId: string, page: { first?: number; after?: string | null } = {}) => {
      const first = page.first ?? 100;
      if (!Number.isInteger(first) || first < 1 || first > 500) throw badRequest('first is an integer from 1 to 500', 'VALIDATION_FAILED');
      if (page.after != null && !isUuid(page.after)) throw badRequest('after is a transform id', 'VALIDATION_FAILED');
      return core.withTenant(tenantId, async (trx) => {
        const rows = await transformsStore.after(trx, page.after ?? undefined, first + 1);
        const items = rows.slice(0, first).map(recordOf);
        return { items, total: await transformsStore.count(trx, {}), next: rows.length > first ? items[items.length - 1]!.id : null };
      });
    },

    get: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => transformView(await find(trx, id))),

    /** With `held`, a transaction of the tenant the caller holds, read there. */
    findRecord: (tenantId: string, id: string, held?: TenantTransaction) => inHeldOrOwn(tenantId, held, async (trx) => {
      const row = await transformsStore.find(trx, id);
      return row ? recordOf(row) : null;
    }),

    findRecordByName: (tenantId: string, name: string, held?: TenantTransaction) => inHeldOrOwn(tenantId, held, async (trx) => {
      const row = await transformsStore.findByName(trx, name);
      return row ? recordOf(row) : null;
    }),

    createOne: async (tenantId: string, spec: unknown, createdBy: string | null, origin: Record<string, unknown> | null = null) => {
      const values = await prepare(tenantId, spec, origin);
      return core.withTenant(tenantId, async (trx) => transformView(await create(trx, tenantId, values, createdBy)));
    },

    patchOne: async (tenantId: string, id: string, body: unknown) => {
      const prepared = await preparePatch(tenantId, id, body);
      return core.withTenant(tenantId, async (trx) => transformView(await patch(trx, tenantId, prepared)));
    },

    /** Refreshes lineage and output schema from the SQL and the datasets as they are now; runs nothing. */
    hydrate: async (tenantId: string, id: string) => {
      const row = await core.withTenant(tenantId, (trx) => find(trx, id));
      const { analysis } = await analyzer.compile(tenantId, row.sql, row.parameters);
      return core.withTenant(tenantId, async (trx) => {
        await find(trx, id, true);
        const updated = await transformsStore.update(trx, id, {
          inputs: analysis.inputs, columns: analysis.columns, analysis_errors: analysis.errors, hydrated_at: new Date(),
        });
        return { ...transformView(updated), analysis };
      });
    },

    /** Hard delete (cascades to its runs, artifacts and schedule), or archive. 409 while a run is going. */
    remove: (tenantId: string, id: string, archive: boolean, schedules: { pause(trx: TenantTransaction): Promise<void>; disarm(trx: TenantTransaction): Promise<void> }) =>
      core.withTenant(tenantId, async (trx) => {
        await find(trx, id, true);
        if (archive) {
          await schedules.pause(trx);
          return transformView(await transformsStore.update(trx, id, { status: 'archived' }));
        }
        if (await runsStore.live(trx, id)) throw conflict('A run of this transform is going: cancel it first', 'TRANSFORM_RUN_ACTIVE');
        await schedules.disarm(trx);
        await transformsStore.delete(trx, id);
        return null;
      }),
  };
}

export type TransformService = ReturnType<typeof createTransformService>;

// SQL of form definitions and their versions; always in a tenant transaction.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

const COLUMNS = ['d.id', 'd.name', 'd.description', 'd.latest_version', 'd.created_at', 'd.updated_at'] as const;

export const definitionsStore = {
  insert: (trx: TenantTransaction, tenantId: string, values: { name: string; description: string }) =>
    trx.insertInto('forms_definitions').values({ tenant_id: tenantId, ...values })
      .returning(['id', 'name', 'description', 'latest_version', 'created_at', 'updated_at']).executeTakeFirstOrThrow(),

  insertVersion: (trx: TenantTransaction, tenantId: string, definitionId: string, version: number, schema: unknown, createdBy: string | null) =>
    trx.insertInto('forms_definition_versions')
      .values({ tenant_id: tenantId, definition_id: definitionId, version, schema: JSON.stringify(schema), created_by: createdBy })
      .returning(['version', 'schema', 'created_by', 'created_at']).executeTakeFirstOrThrow(),

  /** A live definition with its latest schema; `forUpdate` locks it (a new version is being written). */
  find: (trx: TenantTransaction, id: string, forUpdate = false) => {
    const query = trx.selectFrom('forms_definitions as d')
      .innerJoin('forms_definition_versions as v', (join) => join.onRef('v.definition_id', '=', 'd.id').onRef('v.version', '=', 'd.latest_version'))
      .select([...COLUMNS, 'v.schema'])
      .where('d.id', '=', id).where('d.deleted_at', 'is', null);
    return (forUpdate ? query.forUpdate('d') : query).executeTakeFirst();
  },

  /** The definitions of these ids, archived ones included (submissions' definitions), with `deleted_at`. */
  findManyAny: (trx: TenantTransaction, ids: readonly string[]) => (ids.length === 0 ? Promise.resolve([])
    : trx.selectFrom('forms_definitions as d').select([...COLUMNS, 'd.deleted_at']).where('d.id', 'in', [...ids]).execute()),

  async list(trx: TenantTransaction, skip: number, limit: number) {
    const rows = await trx.selectFrom('forms_definitions as d').select(COLUMNS).where('d.deleted_at', 'is', null)
      .orderBy('d.created_at', 'desc').orderBy('d.id').offset(skip).limit(limit).execute();
    const { total } = await trx.selectFrom('forms_definitions').select((eb) => eb.fn.countAll<string>().as('total'))
      .where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    return { items: rows, total: Number(total) };
  },

  update: (trx: TenantTransaction, id: string, values: { name?: string; description?: string; latest_version?: number }) =>
    trx.updateTable('forms_definitions').set({ ...values, updated_at: sql<Date>`now()` as never }).where('id', '=', id).execute(),

  archive: (trx: TenantTransaction, id: string) =>
    trx.updateTable('forms_definitions').set({ deleted_at: sql<Date>`now()` as never }).where('id', '=', id).where('deleted_at', 'is', null).execute(),

  /** Versions of a definition, archived or not (submissions keep showing theirs). */
  versions: (trx: TenantTransaction, definitionId: string) =>
    trx.selectFrom('forms_definition_versions').select(['version', 'created_by', 'created_at'])
      .where('definition_id', '=', definitionId).orderBy('version', 'desc').execute(),

  version: (trx: TenantTransaction, definitionId: string, version: number) =>
    trx.selectFrom('forms_definition_versions').select(['definition_id', 'version', 'schema', 'created_by', 'created_at'])
      .where('definition_id', '=', definitionId).where('version', '=', version).executeTakeFirst(),

  liveIdByName: async (trx: TenantTransaction, name: string) => (await trx.selectFrom('forms_definitions').select('id')
    .where('name', '=', name).where('deleted_at', 'is', null).executeTakeFirst())?.id,

  /** Whether the definition exists, archived or not. */
  exists: async (trx: TenantTransaction, id: string) =>
    Boolean(await trx.selectFrom('forms_definitions').select('id').where('id', '=', id).executeTakeFirst()),
};

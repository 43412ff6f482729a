// SQL of use cases and their field bindings; always in a tenant transaction.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import type { FieldBinding } from '../api.ts';
import './tables.ts';

export interface UseCaseValues {
  name: string;
  definition_id: string;
  form_version: number | null;
  target_model: string;
  target_config: Record<string, unknown>;
  access: 'public' | 'authenticated';
  active: boolean;
}

const COLUMNS = ['id', 'name', 'definition_id', 'form_version', 'target_model', 'target_config', 'access', 'active', 'created_at', 'updated_at'] as const;

export const useCasesStore = {
  insert: (trx: TenantTransaction, tenantId: string, values: UseCaseValues) =>
    trx.insertInto('forms_use_cases').values({ tenant_id: tenantId, ...values, target_config: JSON.stringify(values.target_config) })
      .returning(COLUMNS).executeTakeFirstOrThrow(),

  update: (trx: TenantTransaction, id: string, values: UseCaseValues) =>
    trx.updateTable('forms_use_cases')
      .set({ ...values, target_config: JSON.stringify(values.target_config), updated_at: sql<Date>`now()` as never })
      .where('id', '=', id).returning(COLUMNS).executeTakeFirstOrThrow(),

  find: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('forms_use_cases').select(COLUMNS).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst(),

  /** Archived ones included (a stored submission's use case). */
  findAny: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('forms_use_cases').select(COLUMNS).where('id', '=', id).executeTakeFirst(),

  /** The use cases of these ids, archived ones included (submissions' use cases), with `deleted_at`. */
  findManyAny: (trx: TenantTransaction, ids: readonly string[]) => (ids.length === 0 ? Promise.resolve([])
    : trx.selectFrom('forms_use_cases').select([...COLUMNS, 'deleted_at']).where('id', 'in', [...ids]).execute()),

  async list(trx: TenantTransaction, skip: number, limit: number) {
    const items = await trx.selectFrom('forms_use_cases').select(COLUMNS).where('deleted_at', 'is', null)
      .orderBy('created_at', 'desc').orderBy('id').offset(skip).limit(limit).execute();
    const { total } = await trx.selectFrom('forms_use_cases').select((eb) => eb.fn.countAll<string>().as('total'))
      .where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    return { items, total: Number(total) };
  },

  archive: (trx: TenantTransaction, id: string) =>
    trx.updateTable('forms_use_cases').set({ deleted_at: sql<Date>`now()` as never, active: false }).where('id', '=', id).execute(),

  /** Live use cases of a definition (an archived definition must have none). */
  countForDefinition: async (trx: TenantTransaction, definitionId: string) => Number((await trx.selectFrom('forms_use_cases')
    .select((eb) => eb.fn.countAll<string>().as('n')).where('definition_id', '=', definitionId).where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow()).n),

  /** Whether the tenant has an active public use case (anonymous uploads need one). */
  hasActivePublic: async (trx: TenantTransaction) => Boolean(await trx.selectFrom('forms_use_cases').select('id')
    .where('access', '=', 'public').where('active', '=', true).where('deleted_at', 'is', null).limit(1).executeTakeFirst()),

  bindings: (trx: TenantTransaction, useCaseId: string): Promise<FieldBinding[]> =>
    trx.selectFrom('forms_field_bindings').select(['source_field_path', 'target_field_path', 'transform', 'transform_params'])
      .where('use_case_id', '=', useCaseId).orderBy('position').execute(),

  async replaceBindings(trx: TenantTransaction, tenantId: string, useCaseId: string, bindings: FieldBinding[]) {
    await trx.deleteFrom('forms_field_bindings').where('use_case_id', '=', useCaseId).execute();
    if (bindings.length === 0) return;
    await trx.insertInto('forms_field_bindings').values(bindings.map((binding, position) => ({
      tenant_id: tenantId, use_case_id: useCaseId, position, ...binding, transform_params: JSON.stringify(binding.transform_params),
    }))).execute();
  },
};

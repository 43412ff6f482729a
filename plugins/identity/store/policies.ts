// SQL of identity policies and their immutable versions (tenant transactions only).
import { type KeysetPage, sql, type TenantTransaction } from 'agent-platform/sdk';

const policyColumns = ['p.id', 'p.name', 'p.description', 'p.current_version', 'p.created_by', 'p.created_at', 'p.updated_at'] as const;

export interface PolicyRow {
  id: string;
  name: string;
  description: string;
  current_version: number;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  spec: Record<string, unknown>;
  fingerprint: string;
}

export interface VersionRow {
  policy_id: string;
  version: number;
  spec: Record<string, unknown>;
  fingerprint: string;
  created_by: string | null;
  created_at: Date;
}

/** A policy with its current version's spec. */
const withCurrent = (trx: TenantTransaction) => trx.selectFrom('identity_policies as p')
  .innerJoin('identity_policy_versions as v', (join) => join.onRef('v.policy_id', '=', 'p.id').onRef('v.version', '=', 'p.current_version'))
  .select([...policyColumns, 'v.spec', 'v.fingerprint'])
  .where('p.deleted_at', 'is', null);

export const policiesStore = {
  get: (trx: TenantTransaction, id: string, forUpdate = false) => {
    const query = withCurrent(trx).where('p.id', '=', id);
    return (forUpdate ? query.forUpdate('p') : query).executeTakeFirst() as Promise<PolicyRow | undefined>;
  },
  byName: (trx: TenantTransaction, name: string) => withCurrent(trx).where('p.name', '=', name).executeTakeFirst() as Promise<PolicyRow | undefined>,
  list: (trx: TenantTransaction, page: { limit: number; offset: number }) =>
    withCurrent(trx).orderBy('p.created_at').orderBy('p.id').limit(page.limit).offset(page.offset).execute() as Promise<PolicyRow[]>,
  /**
   * A keyset page in list order (created_at, id), forward or backward as
   * KeysetPage says; the key is [created_at in microseconds since the epoch
   * (exact, as text), id], each row's as `created_key`.
   */
  page: (trx: TenantTransaction, page: KeysetPage<[string, string]>) => {
    const forward = page.direction === 'forward';
    const direction = forward ? 'asc' : 'desc';
    let query = withCurrent(trx).select(sql<string>`(extract(epoch FROM p.created_at) * 1000000)::bigint::text`.as('created_key'));
    if (page.cursor !== undefined) {
      const [micros, id] = page.cursor;
      query = query.where(sql<boolean>`(p.created_at, p.id) ${sql.raw(forward ? '>' : '<')} (timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond', ${id}::uuid)`);
    }
    return query.orderBy('p.created_at', direction).orderBy('p.id', direction).limit(page.limit).execute() as Promise<(PolicyRow & { created_key: string })[]>;
  },
  count: async (trx: TenantTransaction) => Number((await trx.selectFrom('identity_policies').select((eb) => eb.fn.countAll<string>().as('n'))
    .where('deleted_at', 'is', null).executeTakeFirstOrThrow()).n),
  nameTaken: async (trx: TenantTransaction, name: string, except?: string) => {
    let query = trx.selectFrom('identity_policies').select('id').where('name', '=', name).where('deleted_at', 'is', null);
    if (except) query = query.where('id', '<>', except);
    return (await query.executeTakeFirst()) !== undefined;
  },
  insert: (trx: TenantTransaction, tenantId: string, values: { name: string; description: string; createdBy: string | null }) =>
    trx.insertInto('identity_policies')
      .values({ tenant_id: tenantId, name: values.name, description: values.description, created_by: values.createdBy })
      .returning('id').executeTakeFirstOrThrow(),
  update: (trx: TenantTransaction, id: string, values: { name?: string; description?: string; current_version: number }) =>
    trx.updateTable('identity_policies').set({ ...values, updated_at: sql<Date>`now()` as never }).where('id', '=', id).execute(),
  softDelete: async (trx: TenantTransaction, id: string) =>
    (await trx.updateTable('identity_policies').set({ deleted_at: sql<Date>`now()` as never }).where('id', '=', id).where('deleted_at', 'is', null)
      .executeTakeFirst()).numUpdatedRows > 0n,
  insertVersion: (trx: TenantTransaction, tenantId: string, v: { policyId: string; version: number; spec: object; fingerprint: string; createdBy: string | null }) =>
    trx.insertInto('identity_policy_versions').values({
      tenant_id: tenantId, policy_id: v.policyId, version: v.version, spec: JSON.stringify(v.spec), fingerprint: v.fingerprint, created_by: v.createdBy,
    }).execute(),
  versions: (trx: TenantTransaction, policyId: string) => trx.selectFrom('identity_policy_versions')
    .select(['policy_id', 'version', 'spec', 'fingerprint', 'created_by', 'created_at']).where('policy_id', '=', policyId).orderBy('version').execute() as Promise<VersionRow[]>,
  version: (trx: TenantTransaction, policyId: string, version: number) => trx.selectFrom('identity_policy_versions')
    .select(['policy_id', 'version', 'spec', 'fingerprint', 'created_by', 'created_at'])
    .where('policy_id', '=', policyId).where('version', '=', version).executeTakeFirst() as Promise<VersionRow | undefined>,
};

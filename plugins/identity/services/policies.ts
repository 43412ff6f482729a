// Identity policies: CRUD with immutable versions (a
// new version only when the matching spec's fingerprint changes), clone, and
// the api's getPolicy. Deleting keeps the versions (soft delete).
import { badRequest, conflict, isUuid, type KeysetPage, notFound, type TenantTransaction } from 'agent-platform/sdk';
import type { BlockingKey, IdentityPolicyVersion, IdentityRule } from '../api.ts';
import type { IdentityContext } from './context.ts';
import { canonicalSpec, fingerprintOf, type PolicySpec } from '../matching/policy-spec.ts';
import { policiesStore, type PolicyRow, type VersionRow } from '../store/policies.ts';

export interface PolicyInput {
  name: string;
  description?: string;
  rules: IdentityRule[];
  blocking_keys?: BlockingKey[];
  max_block_size?: number;
}

export function policyView(row: PolicyRow) {
  const spec = row.spec as unknown as PolicySpec;
  return {
    id: row.id, name: row.name, description: row.description, version: row.current_version, fingerprint: row.fingerprint,
    rules: spec.rules, blocking_keys: spec.blocking_keys, max_block_size: spec.max_block_size,
    created_by: row.created_by, created_at: row.created_at, updated_at: row.updated_at,
  };
}
export type PolicyView = ReturnType<typeof policyView>;

export const versionView = (row: VersionRow) => ({
  policy_id: row.policy_id, version: row.version, fingerprint: row.fingerprint, ...(row.spec as unknown as PolicySpec),
  created_by: row.created_by, created_at: row.created_at,
});

const asVersion = (id: string, version: number, fingerprint: string, spec: PolicySpec): IdentityPolicyVersion =>
  ({ id, version, fingerprint, rules: spec.rules, blocking_keys: spec.blocking_keys, max_block_size: spec.max_block_size });

export function createPolicyService(context: IdentityContext) {
  const { core, options } = context;

  async function find(trx: TenantTransaction, id: string, forUpdate = false): Promise<PolicyRow> {
    const row = isUuid(id) ? await policiesStore.get(trx, id, forUpdate) : undefined;
    if (!row) throw notFound(`No identity policy "${id}"`, 'IDENTITY_POLICY_NOT_FOUND');
    return row;
  }

  async function checkName(trx: TenantTransaction, name: string, except?: string) {
    if (await policiesStore.nameTaken(trx, name, except)) throw conflict(`An identity policy is already named ${name}`, 'IDENTITY_POLICY_EXISTS');
  }

  /** Creates a policy (version 1) inside the caller's transaction (REST, clone, declarative apply). */
  async function createIn(trx: TenantTransaction, tenantId: string, createdBy: string | null, input: PolicyInput) {
    const spec = canonicalSpec(input, options.maxBlockSize);
    await checkName(trx, input.name);
    const { id } = await policiesStore.insert(trx, tenantId, { name: input.name, description: input.description ?? '', createdBy })
      .catch((err: { code?: string }) => {
        // Two requests creating one name at once: the unique index decides.
        throw err.code === '23505' ? conflict(`An identity policy is already named ${input.name}`, 'IDENTITY_POLICY_EXISTS') : err;
      });
    await policiesStore.insertVersion(trx, tenantId, { policyId: id, version: 1, spec, fingerprint: fingerprintOf(spec), createdBy });
    return policyView(await find(trx, id));
  }

  /** Replaces name, description and spec; a changed spec makes the next version. */
  async function replaceIn(trx: TenantTransaction, tenantId: string, id: string, createdBy: string | null, input: PolicyInput) {
    const current = await find(trx, id, true);
    const spec = canonicalSpec(input, options.maxBlockSize);
    const fingerprint = fingerprintOf(spec);
    if (input.name !== current.name) await checkName(trx, input.name, id);
    let version = current.current_version;
    if (fingerprint !== current.fingerprint) {
      version += 1;
      await policiesStore.insertVersion(trx, tenantId, { policyId: id, version, spec, fingerprint, createdBy });
    }
    await policiesStore.update(trx, id, { name: input.name, description: input.description ?? current.description, current_version: version });
    return policyView(await find(trx, id));
  }

  return {
    createIn,
    replaceIn,
    /** The canonical spec and fingerprint an input would have (declarative apply compares them). */
    specOf: (input: PolicyInput) => {
      const spec = canonicalSpec(input, options.maxBlockSize);
      return { spec, fingerprint: fingerprintOf(spec) };
    },
    findByName: (tenantId: string, name: string) => core.withTenant(tenantId, async (trx) => {
      const row = await policiesStore.byName(trx, name);
      return row ? policyView(row) : null;
    }),
    list: (tenantId: string, page: { limit: number; offset: number }) => core.withTenant(tenantId, async (trx) => ({
      items: (await policiesStore.list(trx, page)).map(policyView), total: await policiesStore.count(trx), ...page,
    })),
    /** A keyset page in list order (GraphQL): each view with its key (see policiesStore.page). */
    page: (tenantId: string, page: KeysetPage<[string, string]>) => core.withTenant(tenantId, async (trx) =>
      (await policiesStore.page(trx, page)).map((row) => ({ ...policyView(row), createdKey: row.created_key }))),
    count: (tenantId: string) => core.withTenant(tenantId, (trx) => policiesStore.count(trx)),
    get: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => policyView(await find(trx, id))),
    create: (tenantId: string, createdBy: string, input: PolicyInput) => core.withTenant(tenantId, (trx) => createIn(trx, tenantId, createdBy, input)),
    replace: (tenantId: string, id: string, createdBy: string, input: PolicyInput) =>
      core.withTenant(tenantId, (trx) => replaceIn(trx, tenantId, id, createdBy, input)),
    remove: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      await find(trx, id);
      await policiesStore.softDelete(trx, id);
    }),
    versions: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      await find(trx, id);
      return { items: (await policiesStore.versions(trx, id)).map(versionView) };
    }),
    version: (tenantId: string, id: string, version: number) => core.withTenant(tenantId, async (trx) => {
      await find(trx, id);
      const row = await policiesStore.version(trx, id, version);
      if (!row) throw notFound(`Identity policy ${id} has no version ${version}`, 'IDENTITY_POLICY_VERSION_NOT_FOUND');
      return versionView(row);
    }),
    /** A new policy with the spec of the source's current version (or the given one). */
    clone: (tenantId: string, id: string, createdBy: string, input: { name: string; description?: string; version?: number }) =>
      core.withTenant(tenantId, async (trx) => {
        const source = await find(trx, id);
        const version = input.version ?? source.current_version;
        const row = await policiesStore.version(trx, id, version);
        if (!row) throw badRequest(`Identity policy ${id} has no version ${version}`, 'IDENTITY_POLICY_VERSION_NOT_FOUND');
        const spec = row.spec as unknown as PolicySpec;
        return createIn(trx, tenantId, createdBy, { name: input.name, description: input.description ?? source.description, ...spec });
      }),
    /** The api's getPolicy: null when absent, deleted, or of another tenant. */
    getVersion: (tenantId: string, id: string, version?: number, held?: TenantTransaction): Promise<IdentityPolicyVersion | null> => {
      const read = async (trx: TenantTransaction) => {
        const row = isUuid(id) ? await policiesStore.get(trx, id) : undefined;
        if (!row) return null;
        const found = await policiesStore.version(trx, id, version ?? row.current_version);
        return found ? asVersion(id, found.version, found.fingerprint, found.spec as unknown as PolicySpec) : null;
      };
      return held ? read(held) : core.withTenant(tenantId, read);
    },
  };
}

export type PolicyService = ReturnType<typeof createPolicyService>;

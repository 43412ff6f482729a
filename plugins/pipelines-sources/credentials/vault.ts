// Vault mode: credential values sealed with the core's secret box
// (AES-256-GCM under the master key). The additional data binds tenant, ref
// and version, so a sealed value copied to another row, tenant or version
// does not open. Beside it only metadata: name, kind, field names, version,
// status, rotation time.
import { randomBytes } from 'node:crypto';
import { badRequest, notFound, type SecretBox, type TenantTransaction } from 'agent-platform/sdk';
import { credentialsStore } from '../store/credentials.ts';

const aad = (tenantId: string, ref: string, version: number) => `pipeline-credential:${tenantId}:${ref}:${version}`;

export function createVault(secrets: SecretBox) {
  const seal = (tenantId: string, ref: string, version: number, values: Record<string, string>) =>
    secrets.seal(JSON.stringify(values), aad(tenantId, ref, version));

  return {
    async create(trx: TenantTransaction, tenantId: string, input: { name: string; kind: string; values: Record<string, string> }): Promise<string> {
      const ref = `cred_${randomBytes(18).toString('base64url')}`;
      const values = input.values;
      await credentialsStore.insert(trx, {
        tenant_id: tenantId, ref, name: input.name, kind: input.kind, field_names: Object.keys(values).sort(), sealed: seal(tenantId, ref, 1, values),
      });
      return ref;
    },

    /** The values of an active credential of this tenant (row-level security hides the others: 404). */
    async open(trx: TenantTransaction, tenantId: string, ref: string): Promise<Record<string, string>> {
      const row = await credentialsStore.sealed(trx, ref);
      if (!row) throw notFound(`No credential "${ref}"`, 'CREDENTIAL_NOT_FOUND');
      if (row.status !== 'active') throw badRequest(`The credential "${ref}" is revoked`, 'CREDENTIAL_REVOKED');
      return JSON.parse(secrets.open(row.sealed, aad(tenantId, ref, row.version))) as Record<string, string>;
    },

    /** A tenant-owned, active credential of the pattern `kind` (what a source may reference), locked until the transaction ends. */
    async usable(trx: TenantTransaction, ref: string, kind: string): Promise<void> {
      // Locked: a revoke waits for this attach (and then sees the reference), or this sees the revoke.
      const row = await credentialsStore.lock(trx, ref);
      if (!row) throw badRequest(`No credential "${ref}" in this tenant`, 'CREDENTIAL_NOT_FOUND');
      if (row.status !== 'active') throw badRequest(`The credential "${ref}" is revoked`, 'CREDENTIAL_REVOKED');
      if (row.kind !== kind) throw badRequest(`The credential "${ref}" holds ${row.kind} fields, not ${kind}`, 'CREDENTIAL_KIND_MISMATCH');
    },

    /** New values (merged over the stored ones) as the next version; read back to verify before returning. */
    async rotate(trx: TenantTransaction, tenantId: string, ref: string, values: Record<string, string>): Promise<void> {
      const row = await credentialsStore.lock(trx, ref);
      if (!row) throw notFound(`No credential "${ref}"`, 'CREDENTIAL_NOT_FOUND');
      if (row.status !== 'active') throw badRequest(`The credential "${ref}" is revoked`, 'CREDENTIAL_REVOKED');
      const merged = { ...(JSON.parse(secrets.open(row.sealed, aad(tenantId, ref, row.version))) as Record<string, string>), ...values };
      const version = row.version + 1;
      await credentialsStore.rotate(trx, ref, { sealed: seal(tenantId, ref, version, merged), version, field_names: Object.keys(merged).sort() });
    },

    /** Seals and stores, then opens what was stored: the caller removes the values elsewhere only after this. */
    async createVerified(trx: TenantTransaction, tenantId: string, input: { name: string; kind: string; values: Record<string, string> }): Promise<string> {
      const ref = await this.create(trx, tenantId, input);
      const read = await this.open(trx, tenantId, ref);
      const same = Object.keys(input.values).length === Object.keys(read).length && Object.entries(input.values).every(([k, v]) => read[k] === v);
      if (!same) throw new Error('the credential store did not read back what was written');
      return ref;
    },
  };
}

export type Vault = ReturnType<typeof createVault>;

// The /credentials endpoints of a source (vault mode): the
// attached credential's metadata, attaching a new or an existing one,
// rotating its values, detaching, migrating inline values into the store,
// and revoking an unreferenced credential. In legacy_inline mode each one
// fails clearly. Nothing here deletes stored secret data.
import { badRequest, conflict, notFound, type TenantTransaction } from 'agent-platform/sdk';
import type { SourcesContext } from './context.ts';
import { isSealed, splitStored } from '../credentials/inline.ts';
import type { SourceService } from './sources.ts';
import { checkCredentialFields } from '../patterns/source-config.ts';
import { credentialsStore, type CredentialMetadata } from '../store/credentials.ts';
import { sourcesStore, type SourceRow } from '../store/sources.ts';

export interface CredentialInput {
  credential_values?: Record<string, string>;
  credential_name?: string;
  credential_ref?: string;
}

export function createCredentialService(context: SourcesContext, sources: SourceService) {
  const { core, options, patterns, vault, inline } = context;

  function requireVault(): void {
    if (options.credentialMode !== 'vault') {
      throw badRequest('Source credentials are inline (SOURCE_CREDENTIAL_MODE=legacy_inline): the /credentials endpoints need vault mode', 'CREDENTIAL_MODE_LEGACY');
    }
  }

  function view(row: SourceRow, metadata: CredentialMetadata) {
    const declared = patterns.get(row.pattern_id).credentialFields;
    return {
      credential_ref: metadata.ref, name: metadata.name, kind: metadata.kind, field_names: metadata.field_names,
      presence: Object.fromEntries(declared.map((field) => [field, metadata.field_names.includes(field)])),
      version: String(metadata.version), status: metadata.status, rotated_at: metadata.rotated_at, reference_count: metadata.reference_count,
      created_at: metadata.created_at,
    };
  }

  async function attached(trx: TenantTransaction, row: SourceRow) {
    const metadata = row.credential_ref ? await credentialsStore.metadata(trx, row.credential_ref) : undefined;
    if (!metadata) throw notFound('The source has no credential attached', 'CREDENTIAL_NOT_FOUND');
    return metadata;
  }

  /** Runs `work` on the source, locked, in vault mode. */
  async function onSource<T>(tenantId: string, sourceId: string, work: (trx: TenantTransaction, row: SourceRow) => Promise<T>): Promise<T> {
    requireVault();
    await patterns.refresh();
    return core.withTenant(tenantId, async (trx) => work(trx, await sources.find(trx, sourceId, true)));
  }

  return {
    get: (tenantId: string, sourceId: string) => onSource(tenantId, sourceId, async (trx, row) => view(row, await attached(trx, row))),

    /** Attaches a credential: a new one from values and a name, or an existing tenant-owned ref (never both). */
    attach: (tenantId: string, sourceId: string, input: CredentialInput) => onSource(tenantId, sourceId, async (trx, row) => {
      if (row.credential_ref) throw conflict('The source already has a credential: PUT rotates it, DELETE detaches it', 'CREDENTIAL_EXISTS');
      if ((input.credential_values === undefined) === (input.credential_ref === undefined)) {
        throw badRequest('Give either credential_values with credential_name, or credential_ref: exactly one', 'CREDENTIAL_CONFLICT');
      }
      let ref = input.credential_ref;
      if (input.credential_values) {
        if (!input.credential_name) throw badRequest('credential_values need a credential_name', 'CREDENTIAL_NAME_REQUIRED');
        checkCredentialFields(patterns.get(row.pattern_id), undefined, input.credential_values);
        ref = await vault.create(trx, tenantId, { name: input.credential_name, kind: row.pattern_id, values: input.credential_values });
      } else {
        await vault.usable(trx, ref!, row.pattern_id);
      }
      const updated = await sourcesStore.update(trx, sourceId, { credential_ref: ref });
      return view(updated, (await credentialsStore.metadata(trx, ref!))!);
    }),

    /** New values for the attached credential (merged over the stored ones): a new version, for every source using it. */
    rotate: (tenantId: string, sourceId: string, values: Record<string, string>) => onSource(tenantId, sourceId, async (trx, row) => {
      const metadata = await attached(trx, row);
      checkCredentialFields(patterns.get(row.pattern_id), undefined, values);
      await vault.rotate(trx, tenantId, metadata.ref, values);
      return view(row, (await credentialsStore.metadata(trx, metadata.ref))!);
    }),

    /** Detaches the credential; it stays in the store (revoke it when no source uses it). */
    detach: (tenantId: string, sourceId: string) => onSource(tenantId, sourceId, async (trx, row) => {
      await attached(trx, row);
      await sourcesStore.update(trx, sourceId, { credential_ref: null });
    }),

    /**
     * Moves credential values left inline (legacy_inline) into the store:
     * seals and writes them, reads them back to verify, and only then removes
     * the declared fields from the relational row and attaches the new ref.
     */
    migrate: (tenantId: string, sourceId: string, name: string | undefined) => onSource(tenantId, sourceId, async (trx, row) => {
      if (row.credential_ref) throw conflict('The source already has a credential in the store', 'CREDENTIAL_EXISTS');
      const values = inline.open(tenantId, row.id, row.source_config);
      if (Object.keys(values).length === 0) throw conflict('The source has no inline credential values to migrate', 'CREDENTIAL_NOTHING_TO_MIGRATE');
      const ref = await vault.createVerified(trx, tenantId, { name: name ?? `${row.name} credentials`, kind: row.pattern_id, values });
      const remaining = Object.fromEntries(Object.entries(row.source_config).filter(([, value]) => !isSealed(value)));
      const updated = await sourcesStore.update(trx, sourceId, { source_config: splitStored(remaining).config, credential_ref: ref });
      return view(updated, (await credentialsStore.metadata(trx, ref))!);
    }),

    /** Revokes a credential no source references (409 CREDENTIAL_IN_USE otherwise); its sealed data stays. */
    revoke: (tenantId: string, ref: string) => {
      requireVault();
      return core.withTenant(tenantId, async (trx) => {
        await credentialsStore.lock(trx, ref);
        const metadata = await credentialsStore.metadata(trx, ref);
        if (!metadata) throw notFound(`No credential "${ref}"`, 'CREDENTIAL_NOT_FOUND');
        if (metadata.reference_count > 0) throw conflict(`The credential is used by ${metadata.reference_count} source(s): detach it first`, 'CREDENTIAL_IN_USE');
        await credentialsStore.revoke(trx, ref);
        const revoked = (await credentialsStore.metadata(trx, ref))!;
        return { credential_ref: ref, name: revoked.name, kind: revoked.kind, status: revoked.status, version: String(revoked.version), reference_count: 0 };
      });
    },
  };
}

export type CredentialService = ReturnType<typeof createCredentialService>;

// Sources: created from a pattern with a
// configuration and credentials in the tenant's credential mode. Readback
// never carries a credential value: only which declared fields are set.
import { randomUUID } from 'node:crypto';
import { actorOf, badRequest, type KeysetPage, notFound, type Principal, type TenantTransaction } from 'agent-platform/sdk';
import type { SourcesContext } from './context.ts';
import { isSealed, splitStored } from '../credentials/inline.ts';
import { checkCredentialFields, validatedConfig } from '../patterns/source-config.ts';
import { credentialsStore } from '../store/credentials.ts';
import { filesStore } from '../store/files.ts';
import { sourcesStore, type SourceRow } from '../store/sources.ts';

export interface SourceInput {
  name?: string;
  pattern_id?: string;
  source_config?: Record<string, unknown>;
  credential_values?: Record<string, string>;
  credential_name?: string;
  credential_ref?: string | null;
}

export type NewSourceInput = SourceInput & { name: string; pattern_id: string };

export function createSourceService(context: SourcesContext) {
  const { core, options, patterns, vault, inline } = context;
  const vaultMode = options.credentialMode === 'vault';

  function checkCredentialInput(input: SourceInput): void {
    if (!vaultMode) {
      if (input.credential_ref !== undefined || input.credential_name !== undefined) {
        throw badRequest('credential_ref and credential_name are unavailable in legacy_inline credential mode (SOURCE_CREDENTIAL_MODE)', 'CREDENTIAL_REF_UNAVAILABLE');
      }
      return;
    }
    if (input.credential_values !== undefined && input.credential_ref !== undefined) {
      throw badRequest('Give either credential_values with credential_name, or credential_ref: never both', 'CREDENTIAL_CONFLICT');
    }
    if (input.credential_values !== undefined && !input.credential_name) {
      throw badRequest('credential_values need a credential_name (vault mode)', 'CREDENTIAL_NAME_REQUIRED');
    }
  }

  /** The credential values the source has now (opened), whatever the mode. */
  async function storedCredentials(trx: TenantTransaction, tenantId: string, row: SourceRow): Promise<Record<string, string>> {
    const inlineValues = inline.open(tenantId, row.id, row.source_config);
    if (!vaultMode) return inlineValues;
    // Values left inline from legacy_inline mode serve until migrated; the vault's win.
    return { ...inlineValues, ...(row.credential_ref ? await vault.open(trx, tenantId, row.credential_ref) : {}) };
  }

  async function view(trx: TenantTransaction, row: SourceRow) {
    const pattern = patterns.list().find((p) => p.pattern.id === row.pattern_id);
    const { config, sealedFields } = splitStored(row.source_config);
    const credential = row.credential_ref ? await credentialsStore.metadata(trx, row.credential_ref) : undefined;
    return {
      id: row.id,
      name: row.name,
      pattern_id: row.pattern_id,
      source_config: config,
      credential_mode: options.credentialMode,
      credential_ref: vaultMode ? row.credential_ref : null,
      credential_name: credential?.name ?? null,
      credential_fields: pattern?.credentialFields ?? [],
      credential_fields_set: [...new Set([...sealedFields, ...(credential?.field_names ?? [])])].sort(),
      state: row.state,
      created_by: row.created_by,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** A configuration naming an uploaded file (the csv pattern's file_id) names one of this tenant's: else 404, as for any unknown id. */
  async function checkFileExists(trx: TenantTransaction, config: Record<string, unknown>): Promise<void> {
    if (typeof config.file_id !== 'string') return;
    if (!(await filesStore.find(trx, config.file_id))) throw notFound(`No uploaded file "${config.file_id}"`, 'SOURCE_FILE_NOT_FOUND');
  }

  async function find(trx: TenantTransaction, id: string, lock = false): Promise<SourceRow> {
    const row = lock ? await sourcesStore.lock(trx, id) : await sourcesStore.find(trx, id);
    if (!row) throw notFound(`No source "${id}"`, 'SOURCE_NOT_FOUND');
    return row;
  }

  /** Where the credentials go: a new vault credential, a referenced one, or sealed fields of source_config. */
  async function placeCredentials(trx: TenantTransaction, tenantId: string, sourceId: string, patternId: string, input: SourceInput, current: SourceRow | undefined) {
    if (!vaultMode) {
      const sealed = input.credential_values ? inline.seal(tenantId, sourceId, input.credential_values) : {};
      return { credentialRef: null, sealed };
    }
    if (input.credential_values) {
      return { credentialRef: await vault.create(trx, tenantId, { name: input.credential_name!, kind: patternId, values: input.credential_values }), sealed: {} };
    }
    if (typeof input.credential_ref === 'string') {
      await vault.usable(trx, input.credential_ref, patternId);
      return { credentialRef: input.credential_ref, sealed: {} };
    }
    // Detach (null) or keep; a detached credential stays in the store.
    return { credentialRef: input.credential_ref === null ? null : (current?.credential_ref ?? null), sealed: {} };
  }

  /**
   * Creates a source in the caller's transaction (the create route's, or a
   * declarative apply's); its function calls act for `by` (sync/source-owner.ts).
   */
  async function insertIn(trx: TenantTransaction, tenantId: string, by: Principal, input: NewSourceInput): Promise<SourceRow> {
    const pattern = patterns.get(input.pattern_id);
    checkCredentialFields(pattern, input.source_config, input.credential_values);
    checkCredentialInput(input);
    const id = randomUUID();
    const { credentialRef, sealed } = await placeCredentials(trx, tenantId, id, pattern.pattern.id, input, undefined);
    const credentials = input.credential_values ?? (credentialRef ? await vault.open(trx, tenantId, credentialRef) : {});
    const config = input.source_config ?? {};
    validatedConfig(pattern, config, credentials);
    await checkFileExists(trx, config);
    return sourcesStore.insert(trx, {
      id, tenant_id: tenantId, name: input.name, pattern_id: pattern.pattern.id,
      source_config: { ...config, ...sealed }, credential_ref: credentialRef, created_by: by.sub, acts_for: actorOf(by) ?? null,
    });
  }

  /**
   * Updates a (locked) source in the caller's transaction; stored credential
   * values are kept unless new ones are given. A new configuration (what the
   * source calls) makes its calls act for `by` from now on.
   */
  async function updateIn(trx: TenantTransaction, tenantId: string, current: SourceRow, input: SourceInput, by: Principal): Promise<SourceRow> {
    checkCredentialInput(input);
    const id = current.id;
    const pattern = patterns.get(current.pattern_id);
    checkCredentialFields(pattern, input.source_config, input.credential_values);
    const { config: storedConfig } = splitStored(current.source_config);
    const { credentialRef, sealed } = await placeCredentials(trx, tenantId, id, current.pattern_id, input, current);
    // Stored values are kept across ordinary updates; given ones replace theirs.
    const kept = vaultMode
      ? (credentialRef ? await vault.open(trx, tenantId, credentialRef) : {})
      : { ...inline.open(tenantId, id, current.source_config), ...(input.credential_values ?? {}) };
    const config = input.source_config ?? storedConfig;
    validatedConfig(pattern, config, kept);
    await checkFileExists(trx, config);
    const keptSealed = vaultMode ? {} : Object.fromEntries(Object.entries(current.source_config).filter(([, value]) => isSealed(value)));
    return sourcesStore.update(trx, id, {
      name: input.name,
      source_config: { ...config, ...keptSealed, ...sealed },
      credential_ref: vaultMode ? credentialRef : undefined,
      acts_for: input.source_config !== undefined ? (actorOf(by) ?? null) : undefined,
    });
  }

  /**
   * What create (no current row) or update would check, writing nothing: a
   * declarative dry-run plans with it. The credentials the pattern would see
   * are the given ones, else the referenced or stored ones.
   */
  async function checkInput(trx: TenantTransaction, tenantId: string, input: NewSourceInput, current: SourceRow | undefined): Promise<void> {
    const pattern = patterns.get(current?.pattern_id ?? input.pattern_id);
    checkCredentialFields(pattern, input.source_config, input.credential_values);
    checkCredentialInput(input);
    const ref = typeof input.credential_ref === 'string' ? input.credential_ref : undefined;
    if (vaultMode && ref) {
      const row = await credentialsStore.metadata(trx, ref);
      if (!row) throw badRequest(`No credential "${ref}" in this tenant`, 'CREDENTIAL_NOT_FOUND');
      if (row.kind !== pattern.pattern.id) throw badRequest(`The credential "${ref}" holds ${row.kind} fields, not ${pattern.pattern.id}`, 'CREDENTIAL_KIND_MISMATCH');
    }
    let credentials: Record<string, string>;
    if (!vaultMode) credentials = { ...(current ? inline.open(tenantId, current.id, current.source_config) : {}), ...(input.credential_values ?? {}) };
    else if (input.credential_values) credentials = input.credential_values;
    else if (ref) credentials = await vault.open(trx, tenantId, ref);
    else credentials = current && input.credential_ref !== null ? await storedCredentials(trx, tenantId, current) : {};
    const config = input.source_config ?? (current ? splitStored(current.source_config).config : {});
    validatedConfig(pattern, config, credentials);
    await checkFileExists(trx, config);
  }

  return {
    find,
    insertIn,
    updateIn,
    checkInput,
    findByName: (trx: TenantTransaction, name: string) => sourcesStore.findByName(trx, name),
    view,
    storedCredentials,

    async create(tenantId: string, by: Principal, input: NewSourceInput) {
      await patterns.refresh();
      return core.withTenant(tenantId, async (trx) => view(trx, await insertIn(trx, tenantId, by, input)));
    },

    get: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => view(trx, await find(trx, id))),

    list: (tenantId: string, page: { limit: number; offset: number }) => core.withTenant(tenantId, async (trx) => {
      const rows = await sourcesStore.list(trx, page);
      return { items: await Promise.all(rows.map((row) => view(trx, row))), total: await sourcesStore.count(trx), ...page };
    }),

    /** A keyset page of sources (GraphQL; see sourcesStore.page). */
    page: (tenantId: string, page: KeysetPage<string>) => core.withTenant(tenantId, async (trx) => {
      const rows = await sourcesStore.page(trx, page);
      return Promise.all(rows.map((row) => view(trx, row)));
    }),

    count: (tenantId: string) => core.withTenant(tenantId, (trx) => sourcesStore.count(trx)),

    /** The sources of these ids, in their order (undefined where absent). */
    findMany: (tenantId: string, ids: readonly string[]) => core.withTenant(tenantId, async (trx) => {
      const rows = await sourcesStore.findMany(trx, [...new Set(ids)]);
      const views = new Map(await Promise.all(rows.map(async (row) => [row.id, await view(trx, row)] as const)));
      return ids.map((id) => views.get(id));
    }),

    async update(tenantId: string, id: string, input: SourceInput, by: Principal) {
      checkCredentialInput(input);
      await patterns.refresh();
      return core.withTenant(tenantId, async (trx) => view(trx, await updateIn(trx, tenantId, await find(trx, id, true), input, by)));
    },

    /** Deletes the source and its streams; its credential stays in the store, its datasets in the lake. */
    remove: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      const deleted = await sourcesStore.delete(trx, id);
      if (!deleted.numDeletedRows) throw notFound(`No source "${id}"`, 'SOURCE_NOT_FOUND');
    }),
  };
}

export type SourceService = ReturnType<typeof createSourceService>;

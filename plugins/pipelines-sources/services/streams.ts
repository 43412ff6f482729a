// Streams of a source: how each one syncs and where it lands,
// edited one by one or in bulk, and refreshed from a discovery snapshot
// (refresh-schema) without losing what the tenant configured.
import { badRequest, notFound, type TenantTransaction } from 'agent-platform/sdk';
import type { SourcesContext } from './context.ts';
import type { DiscoveredStream } from '../patterns/types.ts';
import type { SourceService } from './sources.ts';
import { streamsStore, type StreamRow, type StreamSettings } from '../store/streams.ts';

export interface StreamInput extends Partial<StreamSettings> {
  name: string;
  namespace?: string | null;
}

export type StreamPatch = Partial<StreamSettings>;

const propertiesOf = (schema: Record<string, unknown>) => Object.keys((schema.properties ?? {}) as object);

export function viewStream(row: StreamRow) {
  return { ...row };
}

export function createStreamService(context: SourcesContext, sources: SourceService) {
  const { core } = context;

  function defaultDestination(tenantId: string, sourceName: string, name: string, namespace: string | null): string {
    const qualified = namespace && namespace !== 'public' ? `${namespace}_${name}` : name;
    return context.lake().datasetIdFor('raw', tenantId, `${sourceName}_${qualified}`);
  }

  /** The rules a stream's settings keep (400 STREAM_INVALID / DESTINATION_INVALID naming the rule broken). */
  function check(tenantId: string, settings: StreamSettings): void {
    const invalid = (message: string) => badRequest(message, 'STREAM_INVALID');
    const properties = propertiesOf(settings.schema);
    const known = (field: string) => properties.length === 0 || properties.includes(field);
    if (!settings.supported_sync_modes.includes(settings.sync_mode)) throw invalid(`sync_mode ${settings.sync_mode} is not among the stream's supported_sync_modes`);
    if (settings.sync_mode === 'incremental' && !settings.cursor_field) throw invalid('An incremental stream needs a cursor_field');
    if (settings.sync_mode === 'incremental' && settings.write_mode === 'overwrite') throw invalid('An incremental stream appends (write_mode append or append_dedup): overwrite would keep only the changed rows');
    if (settings.cursor_field && !known(settings.cursor_field)) throw invalid(`cursor_field "${settings.cursor_field}" is not a property of the stream's schema`);
    const unknownKey = settings.primary_key.find((field) => !known(field));
    if (unknownKey !== undefined) throw invalid(`primary_key field "${unknownKey}" is not a property of the stream's schema`);
    if (settings.write_mode === 'append_dedup' && settings.primary_key.length === 0) throw invalid('write_mode append_dedup needs a primary_key');
    const destination = context.lake().parseDatasetId(settings.destination);
    if (destination.namespace !== 'raw' || destination.layer !== tenantId) {
      throw badRequest(`A stream lands in the tenant's raw layer: raw.${tenantId}.<table>, not ${settings.destination}`, 'DESTINATION_INVALID');
    }
  }

  function settingsOf(row: StreamRow): StreamSettings {
    const { schema, supported_sync_modes, sync_mode, write_mode, cursor_field, primary_key, enabled, destination } = row;
    return { schema, supported_sync_modes, sync_mode, write_mode, cursor_field, primary_key, enabled, destination };
  }

  async function findStream(trx: TenantTransaction, sourceId: string, streamId: string): Promise<StreamRow> {
    const row = await streamsStore.find(trx, sourceId, streamId);
    if (!row) throw notFound(`No stream "${streamId}" in source "${sourceId}"`, 'STREAM_NOT_FOUND');
    return row;
  }

  async function patchStream(trx: TenantTransaction, tenantId: string, sourceId: string, streamId: string, patch: StreamPatch) {
    const current = await findStream(trx, sourceId, streamId);
    const settings = { ...settingsOf(current), ...patch };
    check(tenantId, settings);
    return streamsStore.update(trx, streamId, patch);
  }

  /** A new stream with defaults: full refresh, overwrite, the declared key, landing in raw.<tenant>.<source>_<stream>. */
  function newSettings(tenantId: string, sourceName: string, input: StreamInput, declaredKey: string[] = []): StreamSettings {
    const namespace = input.namespace ?? null;
    return {
      schema: input.schema ?? { type: 'object', properties: {} },
      supported_sync_modes: input.supported_sync_modes ?? ['full_refresh'],
      sync_mode: input.sync_mode ?? 'full_refresh',
      write_mode: input.write_mode ?? 'overwrite',
      cursor_field: input.cursor_field ?? null,
      primary_key: input.primary_key ?? declaredKey,
      enabled: input.enabled ?? true,
      destination: input.destination ?? defaultDestination(tenantId, sourceName, input.name, namespace),
    };
  }

  return {
    /** For a declarative apply: the settings a new stream gets, their rules, and writes in the caller's transaction. */
    newSettings,
    check,
    settingsOf,
    insertIn: (trx: TenantTransaction, tenantId: string, sourceId: string, input: StreamInput, settings: StreamSettings) =>
      streamsStore.insert(trx, { tenant_id: tenantId, source_id: sourceId, name: input.name, namespace: input.namespace ?? null, ...settings }),
    patchIn: patchStream,

    /** The streams of these ids, in their order (undefined where absent). */
    findMany: (tenantId: string, ids: readonly string[]) => core.withTenant(tenantId, async (trx) => {
      const rows = new Map((await streamsStore.findMany(trx, [...new Set(ids)])).map((row) => [row.id, viewStream(row)]));
      return ids.map((id) => rows.get(id));
    }),

    list: (tenantId: string, sourceId: string) => core.withTenant(tenantId, async (trx) => {
      await sources.find(trx, sourceId);
      return { items: (await streamsStore.list(trx, sourceId)).map(viewStream) };
    }),

    create: (tenantId: string, sourceId: string, input: StreamInput) => core.withTenant(tenantId, async (trx) => {
      const source = await sources.find(trx, sourceId, true);
      const settings = newSettings(tenantId, source.name, input);
      check(tenantId, settings);
      return viewStream(await streamsStore.insert(trx, { tenant_id: tenantId, source_id: sourceId, name: input.name, namespace: input.namespace ?? null, ...settings }));
    }),

    update: (tenantId: string, sourceId: string, streamId: string, patch: StreamPatch) => core.withTenant(tenantId, async (trx) => {
      await sources.find(trx, sourceId, true);
      return viewStream(await patchStream(trx, tenantId, sourceId, streamId, patch));
    }),

    remove: (tenantId: string, sourceId: string, streamId: string) => core.withTenant(tenantId, async (trx) => {
      await sources.find(trx, sourceId, true);
      await findStream(trx, sourceId, streamId);
      await streamsStore.delete(trx, sourceId, [streamId]);
    }),

    /** Several patches in one transaction: all apply, or (one invalid) none does. */
    bulk: (tenantId: string, sourceId: string, patches: (StreamPatch & { stream_id: string })[]) => core.withTenant(tenantId, async (trx) => {
      await sources.find(trx, sourceId, true);
      const updated = [];
      for (const { stream_id, ...patch } of patches) updated.push(viewStream(await patchStream(trx, tenantId, sourceId, stream_id, patch)));
      return { items: updated };
    }),

    /**
     * A complete discovery snapshot: streams matched by (namespace, name) get
     * the new schema and supported_sync_modes only (routing, sync and write
     * modes, cursor, key, enabled and runtime state stay); new names are
     * created with defaults; names absent from a non-empty snapshot are
     * removed; an empty snapshot removes nothing.
     */
    refreshSchema: (tenantId: string, sourceId: string, snapshot: DiscoveredStream[]) => core.withTenant(tenantId, async (trx) => {
      const source = await sources.find(trx, sourceId, true);
      const existing = await streamsStore.list(trx, sourceId);
      const key = (namespace: string | null, name: string) => `${namespace ?? ''}\u0000${name}`;
      const byKey = new Map(existing.map((row) => [key(row.namespace, row.name), row]));
      const seen = new Set<string>();
      const created: string[] = [];
      const refreshed: string[] = [];
      for (const discovered of snapshot) {
        const id = key(discovered.namespace, discovered.name);
        if (seen.has(id)) throw badRequest(`The snapshot lists the stream "${discovered.name}" twice`, 'STREAM_INVALID');
        seen.add(id);
        const row = byKey.get(id);
        if (row) {
          await streamsStore.update(trx, row.id, { schema: discovered.schema, supported_sync_modes: discovered.supported_sync_modes });
          refreshed.push(row.id);
        } else {
          const settings = newSettings(tenantId, source.name, { name: discovered.name, namespace: discovered.namespace, schema: discovered.schema, supported_sync_modes: discovered.supported_sync_modes }, discovered.source_defined_primary_key);
          check(tenantId, settings);
          created.push((await streamsStore.insert(trx, { tenant_id: tenantId, source_id: sourceId, name: discovered.name, namespace: discovered.namespace, ...settings })).id);
        }
      }
      const removed = snapshot.length === 0 ? [] : existing.filter((row) => !seen.has(key(row.namespace, row.name))).map((row) => row.id);
      await streamsStore.delete(trx, sourceId, removed);
      return { created, refreshed, removed, items: (await streamsStore.list(trx, sourceId)).map(viewStream) };
    }),
  };
}

export type StreamService = ReturnType<typeof createStreamService>;

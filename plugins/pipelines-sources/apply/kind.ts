// The declarative kind `Source`, registered with the
// pipelines-apply plugin. A document names its source by metadata.name:
//
//   apiVersion: agent-platform/v1
//   kind: Source
//   metadata: { name: shop }
//   spec: { pattern_id, source_config, credential_values, credential_name, credential_ref, streams: [{name, namespace, ...settings}] }
//
// Plans: create (no source of that name), patch (changed fields), noop;
// would-409 when the name is taken by a source of another pattern (a pattern
// cannot change) or a stream's destination is another stream's. Streams:
// create, patch (only the settings the document gives are compared), noop,
// and unmanaged for a stream of the source the document does not list (left
// as it is). Credential values are write-only: never compared with the stored
// ones (a plan would confirm a guess), so each given field is always a change
// (named by field, never shown) and an apply always writes them.
import { badRequest, Joi, type TenantTransaction } from 'agent-platform/sdk';
import type { ApplyContext, ApplyDocument, ApplyKindHandler, ApplyPlan } from '../../pipelines-apply/api.ts';
import type { SourcesContext } from '../services/context.ts';
import { splitStored } from '../credentials/inline.ts';
import * as s from '../schemas.ts';
import type { NewSourceInput, SourceInput, SourceService } from '../services/sources.ts';
import type { StreamInput, StreamService } from '../services/streams.ts';
import type { SourceRow } from '../store/sources.ts';
import { streamsStore, type StreamRow, type StreamSettings } from '../store/streams.ts';

type StreamAction = 'create' | 'patch' | 'noop' | 'unmanaged';
type SourceSpec = Omit<NewSourceInput, 'name'> & { streams?: StreamInput[] };

const sourceSpec = s.sourceCreate.fork(['name'], (schema) => schema.forbidden())
  .keys({ streams: Joi.array().items(s.streamCreate).max(500).description('The streams the document manages (others are unmanaged)') })
  .label('SourceSpec');

// Joi would quote a value that fails a pattern: nothing of a document is echoed.
const SANITIZED = { 'string.pattern.base': '{{#label}} does not have the required format', 'any.only': '{{#label}} is not one of the allowed values' };

const SETTINGS: (keyof StreamSettings)[] = ['schema', 'supported_sync_modes', 'sync_mode', 'write_mode', 'cursor_field', 'primary_key', 'enabled', 'destination'];
const streamKey = (namespace: string | null | undefined, name: string) => (namespace ? `${namespace}.${name}` : name);
const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
  return value;
}

function parseSpec(doc: ApplyDocument): SourceSpec {
  const { error, value } = sourceSpec.validate(doc.spec, { abortEarly: false, messages: SANITIZED, errors: { label: 'path' } });
  if (error) throw badRequest(`spec: ${error.details.map((d) => d.message).join('; ')}`, 'VALIDATION_FAILED');
  const seen = new Set<string>();
  for (const stream of value.streams ?? []) {
    const key = streamKey(stream.namespace, stream.name);
    if (seen.has(key)) throw badRequest(`spec.streams lists the stream ${key} twice`, 'STREAM_INVALID');
    seen.add(key);
  }
  return value as SourceSpec;
}

export function sourceKind(context: SourcesContext, sources: SourceService, streams: StreamService): ApplyKindHandler {
  const { core } = context;

  /** A destination another stream lands in already (destinations are unique per tenant). */
  async function destinationTaken(trx: TenantTransaction, settings: StreamSettings, self?: StreamRow): Promise<boolean> {
    const holder = await streamsStore.findByDestination(trx, settings.destination);
    return !!holder && holder.id !== self?.id;
  }

  /** Which source-level fields the document changes; given credential values always are (never compared, never shown). */
  function sourceChanges(row: SourceRow, spec: SourceSpec): { changes: string[]; patch: SourceInput } {
    const changes: string[] = [];
    const patch: SourceInput = {};
    const { config } = splitStored(row.source_config);
    const wanted = spec.source_config ?? {};
    if (!same(config, wanted)) {
      patch.source_config = wanted;
      for (const key of new Set([...Object.keys(config), ...Object.keys(wanted)])) if (!same(config[key], wanted[key])) changes.push(`spec.source_config.${key}`);
    }
    const written = Object.keys(spec.credential_values ?? {}).sort();
    if (written.length) {
      Object.assign(patch, { credential_values: spec.credential_values, credential_name: spec.credential_name });
      changes.push(...written.map((field) => `spec.credential_values.${field}`));
    }
    if (spec.credential_ref !== undefined && spec.credential_ref !== row.credential_ref) {
      patch.credential_ref = spec.credential_ref;
      changes.push('spec.credential_ref');
    }
    return { changes, patch };
  }

  async function planSource(trx: TenantTransaction, ctx: ApplyContext, name: string, spec: SourceSpec): Promise<ApplyPlan> {
    const { tenantId } = ctx;
    const { streams: declared = [], ...input } = spec;
    const row = await sources.findByName(trx, name);
    if (row && row.pattern_id !== spec.pattern_id) {
      return { action: 'would-409', id: row.id, message: `The source ${name} exists with pattern ${row.pattern_id}: a pattern cannot change (delete the source or choose another name)` };
    }
    const { changes, patch } = row ? sourceChanges(row, spec) : { changes: [], patch: {} };
    await sources.checkInput(trx, tenantId, row ? { ...patch, name, pattern_id: row.pattern_id } : { ...input, name }, row);

    const existing = row ? await streamsStore.list(trx, row.id) : [];
    const byKey = new Map(existing.map((stream) => [streamKey(stream.namespace, stream.name), stream]));
    const results: { name: string; action: StreamAction }[] = [];
    const writes: ((trx: TenantTransaction, sourceId: string) => Promise<unknown>)[] = [];
    for (const stream of declared) {
      const key = streamKey(stream.namespace, stream.name);
      const current = byKey.get(key);
      if (!current) {
        const settings = streams.newSettings(tenantId, name, stream);
        streams.check(tenantId, settings);
        if (await destinationTaken(trx, settings)) return { action: 'would-409', message: `The stream ${key} would land in ${settings.destination}, where another stream lands` };
        results.push({ name: key, action: 'create' });
        writes.push((w, sourceId) => streams.insertIn(w, tenantId, sourceId, stream, settings));
        continue;
      }
      const given = SETTINGS.filter((field) => stream[field] !== undefined && !same(stream[field], current[field]));
      if (!given.length) {
        results.push({ name: key, action: 'noop' });
        continue;
      }
      const streamPatch = Object.fromEntries(given.map((field) => [field, stream[field]])) as Partial<StreamSettings>;
      const settings = { ...streams.settingsOf(current), ...streamPatch };
      streams.check(tenantId, settings);
      if (streamPatch.destination && await destinationTaken(trx, settings, current)) return { action: 'would-409', message: `The stream ${key} would land in ${settings.destination}, where another stream lands` };
      changes.push(...given.map((field) => `spec.streams.${key}.${field}`));
      results.push({ name: key, action: 'patch' });
      writes.push((w, sourceId) => streams.patchIn(w, tenantId, sourceId, current.id, streamPatch));
    }
    const declaredKeys = new Set(declared.map((stream) => streamKey(stream.namespace, stream.name)));
    for (const stream of existing) {
      const key = streamKey(stream.namespace, stream.name);
      if (!declaredKeys.has(key)) results.push({ name: key, action: 'unmanaged' });
    }

    if (!row) {
      return {
        action: 'create', streams: results, message: `Creates the source ${name} (${spec.pattern_id}) with ${declared.length} stream(s)`,
        execute: async (w) => {
          const created = await sources.insertIn(w, tenantId, ctx.principal, { ...input, name });
          for (const write of writes) await write(w, created.id);
          return { id: created.id };
        },
      };
    }
    const sourceChanged = Object.keys(patch).length > 0;
    if (!sourceChanged && !writes.length) return { action: 'noop', id: row.id, streams: results };
    return {
      action: 'patch', id: row.id, changes, streams: results,
      execute: async (w) => {
        const locked = await sources.find(w, row.id, true);
        if (sourceChanged) await sources.updateIn(w, tenantId, locked, patch, ctx.principal);
        for (const write of writes) await write(w, row.id);
        return { id: row.id };
      },
    };
  }

  return {
    kind: 'Source',
    async plan(ctx, doc) {
      const spec = parseSpec(doc);
      if (!/^[A-Za-z0-9_]{1,63}$/.test(doc.metadata.name)) throw badRequest('metadata.name of a Source is [A-Za-z0-9_], 1-63 characters', 'VALIDATION_FAILED');
      await context.patterns.refresh();
      // Read-only: planning writes nothing (the transaction only reads).
      return core.withTenant(ctx.tenantId, (trx) => planSource(trx, ctx, doc.metadata.name, spec));
    },
  };
}

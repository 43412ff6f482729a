// Document sync sources: a directory on the server or a list of URLs, synced
// on a cron schedule (pg-boss, per source) or on request, by content hash:
// a new item becomes a document (pending; the reconciler starts it within the
// quota), a changed item's document gets the new bytes and goes back to
// pending (its next run makes a new revision), a removed item's document is
// marked deleted (its revisions stay for citations).
// Sync jobs carry their tenant as their pg-boss group: syncs of one tenant run
// one at a time, syncs of different tenants side by side (up to
// INGESTION_SYNC_CONCURRENCY), so a tenant's slow source never holds up another
// tenant's sync; one source never runs twice at once (begin() in the store).
import { createHash } from 'node:crypto';
import { badRequest } from 'agent-platform/sdk';
import { collectionsStore } from '../store/collections.ts';
import { documentsStore, blobsStore } from '../store/documents.ts';
import { chunksStore } from '../store/revisions.ts';
import { quotaStore } from '../store/quota.ts';
import { syncSourcesStore, type SyncSourceRow } from '../store/sync-sources.ts';
import { detectContentType } from '../parsers/content-type.ts';
import { ingestionErrors } from '../errors.ts';
import { EVENT_SOURCE } from '../event-types.ts';
import { kickReconciler, type RunDeps } from '../pipeline/runs.ts';
import { directoryItems, urlItems, type SyncItem } from '../sync/items.ts';
import { relativeDirectory, tenantDirectory } from '../sync/directory.ts';
import { enqueueTask, scheduleTask, SYNC_TASK } from '../tasks/payloads.ts';

export interface SyncSourceInput {
  name: string;
  collection_id: number;
  kind: 'directory' | 'urls';
  directory?: string;
  pattern?: string | null;
  recursive?: boolean;
  urls?: string[];
  schedule?: string | null;
  timezone?: string;
  active?: boolean;
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

function sourceView(row: SyncSourceRow) {
  return {
    source_id: row.id, name: row.name, kind: row.kind, collection_id: row.collection_id, directory: row.directory, pattern: row.pattern,
    recursive: row.recursive, urls: row.urls, schedule: row.schedule, timezone: row.timezone, active: row.active,
    last_sync: {
      status: row.last_sync_status, started_at: iso(row.last_sync_started_at), finished_at: iso(row.last_sync_at),
      stats: row.last_sync_stats, errors: row.last_sync_errors,
    },
    created_at: iso(row.created_at), updated_at: iso(row.updated_at),
  };
}

function scheduleKey(tenantId: string, sourceId: number): string {
  return `${tenantId}/${sourceId}`;
}

export function createSyncService(deps: RunDeps) {
  const { core, settings } = deps;

  /**
   * pg-boss's schedule, after the row's transaction committed: pg-boss writes it on a connection of
   * its own (on the embedded database, one taken inside the transaction would wait for it forever).
   * Its input was validated before the row changed; setting it again (any update) repairs a failed one.
   */
  async function applySchedule(tenantId: string, row: SyncSourceRow): Promise<void> {
    const key = scheduleKey(tenantId, row.id);
    if (row.active && row.schedule) {
      await scheduleTask(core, SYNC_TASK, key, row.schedule, { tenant_id: tenantId, source_id: row.id }, { tz: row.timezone, group: tenantId });
    } else {
      await core.jobs.unschedule(SYNC_TASK, key).catch(() => undefined);
    }
  }

  async function validated(tenantId: string, input: Partial<SyncSourceInput>): Promise<Partial<SyncSourceInput>> {
    // Kept relative to the tenant's folder: resolved (and checked) again at every sync.
    // Relative only (relativeDirectory refuses absolute and climbing paths before anything is looked at).
    if (input.directory !== undefined) input.directory = (await tenantDirectory(relativeDirectory(input.directory), settings.sync.roots, tenantId)).relative;
    if (input.schedule) {
      const { CronExpressionParser } = await import('cron-parser');
      try {
        if (input.schedule.trim().split(/\s+/).length !== 5) throw new Error('five fields expected');
        CronExpressionParser.parse(input.schedule, { tz: input.timezone ?? 'UTC' });
      } catch (err) {
        throw badRequest(`Invalid schedule "${input.schedule}": ${(err as Error).message}`, 'VALIDATION_FAILED');
      }
    }
    return input;
  }

  async function itemsOf(tenantId: string, row: SyncSourceRow): Promise<SyncItem[]> {
    if (row.kind === 'directory') {
      const { real } = await tenantDirectory(row.directory!, settings.sync.roots, tenantId);
      return directoryItems(real, row.pattern, row.recursive, settings.maxDocSize);
    }
    return urlItems(row.urls ?? [], core.http.fetch({ allowPrivateNetworks: settings.sync.allowPrivateNetworks }), settings.maxDocSize);
  }

  /** One item: new → document, changed → new bytes and pending, same → nothing. */
  async function syncItem(tenantId: string, row: SyncSourceRow, item: SyncItem, known: Map<string, { id: string; content_hash: string }>) {
    const bytes = await item.read();
    if (bytes.length === 0) throw new Error('empty file');
    const hash = createHash('sha256').update(bytes).digest('hex');
    const existing = known.get(item.key);
    if (existing && existing.content_hash === hash) return 'unchanged';
    const detection = await detectContentType(bytes, item.filename);
    if (!detection.ok) throw new Error(`unsupported content type ${detection.detected ?? 'unknown'}`);
    return core.withTenant(tenantId, async (trx) => {
      await blobsStore.put(trx, tenantId, hash, bytes);
      if (existing) {
        const document = await documentsStore.lock(trx, existing.id);
        if (!document || document.deleted_at) return 'unchanged';
        if (document.run_id) return 'busy'; // picked up by the next sync once this run ends
        await documentsStore.replaceContent(trx, existing.id, { content_hash: hash, size_bytes: bytes.length, content_type: detection.contentType, page_count: null });
        await documentsStore.resetOne(trx, existing.id);
        await blobsStore.dropIfUnused(trx, existing.content_hash);
        return 'changed';
      }
      const document = await documentsStore.insert(trx, {
        tenant_id: tenantId, collection_id: row.collection_id, source_id: row.id, source_key: item.key, name: item.filename,
        filename: item.filename, content_type: detection.contentType, size_bytes: bytes.length, content_hash: hash,
        metadata: { source: row.name, source_key: item.key }, page_count: null, run_id: null,
      });
      await core.events.emit(trx, tenantId, {
        type: 'document.uploaded',
        source: EVENT_SOURCE,
        data: {
          document_id: document.id, collection_id: row.collection_id, content_type: detection.contentType, page_count: null,
          filename: item.filename, size_bytes: bytes.length, source_id: row.id,
        },
      });
      return 'added';
    });
  }

  return {
    async create(tenantId: string, input: SyncSourceInput) {
      const checked = await validated(tenantId, { ...input });
      const row = await core.withTenant(tenantId, async (trx) => {
        if (!(await collectionsStore.get(trx, input.collection_id))) throw ingestionErrors.collectionNotFound(input.collection_id);
        return syncSourcesStore.insert(trx, {
          tenant_id: tenantId, name: input.name, kind: input.kind, collection_id: input.collection_id,
          directory: checked.directory ?? null, pattern: input.pattern ?? null, recursive: input.recursive ?? true,
          urls: input.urls ?? null, schedule: input.schedule ?? null, timezone: input.timezone ?? 'UTC', active: input.active ?? true,
        });
      });
      await applySchedule(tenantId, row);
      return sourceView(row);
    },

    async list(tenantId: string, skip: number, limit: number) {
      return core.withTenant(tenantId, async (trx) => {
        const { items, total } = await syncSourcesStore.list(trx, skip, limit);
        return { items: items.map(sourceView), total, skip, limit };
      });
    },

    async get(tenantId: string, id: number) {
      return core.withTenant(tenantId, async (trx) => {
        const row = await syncSourcesStore.get(trx, id);
        if (!row) throw ingestionErrors.sourceNotFound(id);
        return sourceView(row);
      });
    },

    async update(tenantId: string, id: number, input: Partial<SyncSourceInput>) {
      const row = await core.withTenant(tenantId, async (trx) => {
        const current = await syncSourcesStore.get(trx, id);
        if (!current) throw ingestionErrors.sourceNotFound(id);
        if (input.directory !== undefined && current.kind !== 'directory') throw badRequest('A URL source has no directory', 'VALIDATION_FAILED');
        if (input.urls !== undefined && current.kind !== 'urls') throw badRequest('A directory source has no URLs', 'VALIDATION_FAILED');
        const checked = await validated(tenantId, { timezone: current.timezone, ...input });
        return (await syncSourcesStore.update(trx, id, { ...input, ...(checked.directory ? { directory: checked.directory } : {}) } as never))!;
      });
      await applySchedule(tenantId, row);
      return sourceView(row);
    },

    async remove(tenantId: string, id: number) {
      await core.withTenant(tenantId, async (trx) => {
        if (!(await syncSourcesStore.delete(trx, id))) throw ingestionErrors.sourceNotFound(id);
      });
      await core.jobs.unschedule(SYNC_TASK, scheduleKey(tenantId, id)).catch(() => undefined);
    },

    /** Asks for a sync now (pg-boss runs it); 202. */
    async requestSync(tenantId: string, id: number) {
      await core.withTenant(tenantId, async (trx) => {
        if (!(await syncSourcesStore.get(trx, id))) throw ingestionErrors.sourceNotFound(id);
        await enqueueTask(core, SYNC_TASK, { tenant_id: tenantId, source_id: id }, { trx, singletonKey: `sync/${tenantId}/${id}`, group: tenantId });
      });
      return { source_id: id, sync: 'requested' };
    },

    /** Runs one sync of a source (the sync task's work). */
    async runSync(tenantId: string, id: number) {
      const row = await core.withTenant(tenantId, async (trx) => {
        const found = await syncSourcesStore.get(trx, id);
        return found && (await syncSourcesStore.begin(trx, id)) ? found : undefined;
      });
      if (!row) return undefined;
      const stats = { added: 0, changed: 0, unchanged: 0, busy: 0, removed: 0, failed: 0 };
      const errors: { item: string; error: string }[] = [];
      try {
        const items = await itemsOf(tenantId, row);
        const known = new Map((await core.withTenant(tenantId, (trx) => documentsStore.bySourceKeys(trx, id)))
          .map((doc) => [doc.source_key!, { id: doc.id, content_hash: doc.content_hash }]));
        for (const item of items) {
          try {
            stats[await syncItem(tenantId, row, item, known)]++;
          } catch (err) {
            stats.failed++;
            errors.push({ item: item.key, error: (err as Error).message });
          }
        }
        const present = new Set(items.map((item) => item.key));
        await core.withTenant(tenantId, async (trx) => {
          for (const [key, doc] of known) {
            if (present.has(key)) continue;
            await documentsStore.markDeleted(trx, doc.id);
            await chunksStore.retire(trx, doc.id);
            await quotaStore.release(trx, doc.id);
            stats.removed++;
          }
          const status = stats.failed === 0 ? 'succeeded' : stats.failed < items.length ? 'partial' : 'failed';
          await syncSourcesStore.finish(trx, id, status, stats, errors);
          await kickReconciler(deps, trx, tenantId);
        });
      } catch (err) {
        errors.push({ item: row.directory ?? 'urls', error: (err as Error).message });
        await core.withTenant(tenantId, (trx) => syncSourcesStore.finish(trx, id, 'failed', stats, errors));
      }
      return { stats, errors };
    },
  };
}

export type SyncService = ReturnType<typeof createSyncService>;

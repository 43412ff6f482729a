// Ingestion status: one document's status; the aggregate of a
// collection tree or a sync source (counts, drain rate over a window, ETA, top
// errors); error listings; retry-ingestion, which puts documents of the
// requested statuses back to `pending` for the reconciler (documents ingesting
// or ready are untouched).
import type { TenantTransaction } from 'agent-platform/sdk';
import { collectionsStore } from '../store/collections.ts';
import { documentsStore } from '../store/documents.ts';
import { quotaStore } from '../store/quota.ts';
import { syncSourcesStore } from '../store/sync-sources.ts';
import { aggregatesStore, type Scope } from '../store/aggregates.ts';
import { ingestionErrors } from '../errors.ts';
import { kickReconciler, type RunDeps } from '../pipeline/runs.ts';
import { statusView } from '../views/view.ts';

export type RetryStatus = 'error' | 'pending';

const TOP_ERRORS = 10;

async function aggregate(trx: TenantTransaction, scope: Scope, windowMinutes: number) {
  const [counts, completed, topErrors] = await Promise.all([
    aggregatesStore.counts(trx, scope),
    aggregatesStore.completedSince(trx, scope, windowMinutes),
    aggregatesStore.topErrors(trx, scope, TOP_ERRORS),
  ]);
  const known = ['pending', 'ingesting', 'ready', 'error'];
  const byStatus = {
    pending: counts.get('pending') ?? 0,
    ingesting: counts.get('ingesting') ?? 0,
    ready: counts.get('ready') ?? 0,
    error: counts.get('error') ?? 0,
    other: [...counts].filter(([status]) => !known.includes(status)).reduce((sum, [, n]) => sum + n, 0),
  };
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const drainRate = completed / windowMinutes;
  const outstanding = byStatus.pending + byStatus.ingesting;
  return {
    total,
    counts: byStatus,
    drain_rate_per_min: Math.round(drainRate * 100) / 100,
    drain_window_minutes: windowMinutes,
    completed_in_window: completed,
    // Nothing outstanding, or nothing completed in the window (idle or stalled): no estimate.
    eta_seconds: outstanding === 0 || completed === 0 ? null : Math.ceil((outstanding / drainRate) * 60),
    top_errors: topErrors,
  };
}

function errorView(row: Awaited<ReturnType<typeof aggregatesStore.errors>>['items'][number]) {
  return {
    document_id: row.id, collection_id: row.collection_id, source_id: row.source_id, name: row.name, filename: row.filename,
    content_type: row.content_type, error: row.error, stage: row.stage,
    started_at: row.started_at ? new Date(row.started_at).toISOString() : null,
    completed_at: row.completed_at ? new Date(row.completed_at).toISOString() : null,
  };
}

export function createStatusService(deps: RunDeps) {
  const { core } = deps;

  async function collectionScope(trx: TenantTransaction, collectionId: number, includeDescendants: boolean): Promise<Scope> {
    if (!(await collectionsStore.get(trx, collectionId))) throw ingestionErrors.collectionNotFound(collectionId);
    return { collectionIds: await collectionsStore.expand(trx, [collectionId], includeDescendants) };
  }

  async function sourceScope(trx: TenantTransaction, sourceId: number): Promise<Scope> {
    if (!(await syncSourcesStore.get(trx, sourceId))) throw ingestionErrors.sourceNotFound(sourceId);
    return { sourceId };
  }

  async function retry(trx: TenantTransaction, tenantId: string, scope: Scope, statuses: RetryStatus[]) {
    const ids = await documentsStore.resetToPending(trx, { ...scope, statuses });
    // A pending document reset here may have held a slot for a run that never started.
    await quotaStore.releaseMany(trx, ids);
    await kickReconciler(deps, trx, tenantId);
    return ids.length;
  }

  return {
    async documentStatus(tenantId: string, documentId: string) {
      return core.withTenant(tenantId, async (trx) => {
        const document = await documentsStore.get(trx, documentId);
        if (!document) throw ingestionErrors.documentNotFound(documentId);
        return statusView(document);
      });
    },

    async collectionStatus(tenantId: string, collectionId: number, includeDescendants: boolean, windowMinutes: number) {
      return core.withTenant(tenantId, async (trx) => ({
        collection_id: collectionId,
        ...(await aggregate(trx, await collectionScope(trx, collectionId, includeDescendants), windowMinutes)),
      }));
    },

    async sourceStatus(tenantId: string, sourceId: number, windowMinutes: number) {
      return core.withTenant(tenantId, async (trx) => ({ source_id: sourceId, ...(await aggregate(trx, await sourceScope(trx, sourceId), windowMinutes)) }));
    },

    async collectionErrors(tenantId: string, collectionId: number, includeDescendants: boolean, skip: number, limit: number) {
      return core.withTenant(tenantId, async (trx) => {
        const { items, total } = await aggregatesStore.errors(trx, await collectionScope(trx, collectionId, includeDescendants), skip, limit);
        return { collection_id: collectionId, items: items.map(errorView), total, skip, limit };
      });
    },

    async sourceErrors(tenantId: string, sourceId: number, skip: number, limit: number) {
      return core.withTenant(tenantId, async (trx) => {
        const { items, total } = await aggregatesStore.errors(trx, await sourceScope(trx, sourceId), skip, limit);
        return { source_id: sourceId, items: items.map(errorView), total, skip, limit };
      });
    },

    async retryCollection(tenantId: string, collectionId: number, statuses: RetryStatus[], includeDescendants = true) {
      return core.withTenant(tenantId, async (trx) => {
        const scope = await collectionScope(trx, collectionId, includeDescendants);
        return { collection_id: collectionId, statuses, reset_count: await retry(trx, tenantId, scope, statuses) };
      });
    },

    async retrySource(tenantId: string, sourceId: number, statuses: RetryStatus[]) {
      return core.withTenant(tenantId, async (trx) => {
        const scope = await sourceScope(trx, sourceId);
        return { source_id: sourceId, statuses, reset_count: await retry(trx, tenantId, scope, statuses) };
      });
    },
  };
}

export type StatusService = ReturnType<typeof createStatusService>;

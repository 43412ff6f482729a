// Starting, advancing and ending an ingestion run. A run is the pass of one
// document through the stages; its id is on the document (`run_id`) and on
// every stage job, so a job of a superseded run does nothing. Each stage job
// is enqueued in the same transaction as the state it follows from, so a crash
// never loses a run; a run holds one of the tenant's quota slots until it ends.
import { randomUUID } from 'node:crypto';
import type { CoreServices, TenantTransaction } from 'agent-platform/sdk';
import { documentsStore, type DocumentRow } from '../store/documents.ts';
import { quotaStore } from '../store/quota.ts';
import { revisionsStore } from '../store/revisions.ts';
import { ingestionErrors } from '../errors.ts';
import { EVENT_SOURCE } from '../event-types.ts';
import type { IngestionSettings } from '../config/settings.ts';
import type { Stage } from '../store/tables.ts';
import { enqueueTask, RECONCILE_TASK, STAGE_TASK, type StagePayload } from '../tasks/payloads.ts';

export interface RunDeps {
  core: CoreServices;
  settings: IngestionSettings;
}

export async function enqueueStage(deps: RunDeps, trx: TenantTransaction, payload: StagePayload): Promise<void> {
  await enqueueTask(deps.core, STAGE_TASK, payload, { trx });
}

/** Free quota slots now (stale slots released first); locks the tenant's quota until the transaction ends. */
export async function freeSlots(deps: RunDeps, trx: TenantTransaction, tenantId: string): Promise<number> {
  const used = await quotaStore.lockAndCount(trx, tenantId, deps.settings.quotaTtlSeconds);
  return Math.max(0, deps.settings.maxConcurrent - used);
}

/** Throws 429 (with Retry-After) when the tenant has no free slot. */
export async function requireSlot(deps: RunDeps, trx: TenantTransaction, tenantId: string): Promise<void> {
  if ((await freeSlots(deps, trx, tenantId)) > 0) return;
  // A slot frees when a run ends: expect the tenant's recent run length (5 s
  // without history), never more than until the oldest slot goes stale.
  const age = (await quotaStore.oldestSlotAge(trx)) ?? 0;
  const typical = (await quotaStore.recentRunSeconds(trx)) ?? 5;
  const seconds = Math.min(typical, deps.settings.quotaTtlSeconds - age, 60);
  throw ingestionErrors.quota(deps.settings.maxConcurrent, Math.max(1, Math.ceil(seconds)));
}

/**
 * Gives a document a new run: a quota slot, a run id, the first stage job.
 * The caller checked the quota in this transaction (requireSlot/freeSlots).
 */
export async function beginRun(deps: RunDeps, trx: TenantTransaction, tenantId: string, documentId: string, status: 'pending' | 'ingesting'): Promise<DocumentRow> {
  const runId = randomUUID();
  await quotaStore.take(trx, tenantId, documentId, runId);
  const document = await documentsStore.startRun(trx, documentId, runId, status);
  await enqueueStage(deps, trx, { tenant_id: tenantId, document_id: documentId, run_id: runId, stage: 'validate' });
  return document;
}

/** A run ended and freed a slot: documents waiting in pending can start now rather than at the next cron pass. */
export async function kickReconciler(deps: RunDeps, trx: TenantTransaction, tenantId: string): Promise<void> {
  if (!(await documentsStore.hasPending(trx))) return;
  await enqueueTask(deps.core, RECONCILE_TASK, { tenant_id: tenantId }, { trx, singletonKey: `reconcile/${tenantId}` });
}

/** Ends a run with a fatal error: `error` status, the parser's text, the event; the slot is released. */
export async function failRun(deps: RunDeps, trx: TenantTransaction, document: DocumentRow, stage: Stage, message: string): Promise<void> {
  const text = message.slice(0, 4000);
  await revisionsStore.failBuilding(trx, document.id, text);
  await documentsStore.fail(trx, document.id, text);
  await quotaStore.release(trx, document.id);
  await kickReconciler(deps, trx, document.tenant_id);
  await deps.core.events.emit(trx, document.tenant_id, {
    type: 'document.ingestion_failed',
    source: EVENT_SOURCE,
    data: {
      document_id: document.id, collection_id: document.collection_id, content_type: document.content_type,
      page_count: document.page_count, filename: document.filename, stage, error: text,
    },
  });
}

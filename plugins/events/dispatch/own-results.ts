// ignore_own_results: a trigger with it does not react to workflow.completed /
// workflow.failed of an execution it started itself. Which triggers started
// an execution is read from the dispatch records, once per event and only
// when a trigger with the option matched it.
import type { TenantTransaction } from 'agent-platform/sdk';
import { dispatchesStore } from '../store/triggers.ts';

const WORKFLOW_END = new Set(['workflow.completed', 'workflow.failed']);
const NONE: ReadonlySet<string> = new Set();

/** A lazy lookup of the triggers that started the execution this event reports the end of (none for other events). */
export function ownResultsOf(trx: TenantTransaction, event: { type: string; data: Record<string, unknown> }): () => Promise<ReadonlySet<string>> {
  const executionId = event.data.execution_id;
  if (!WORKFLOW_END.has(event.type) || typeof executionId !== 'string') return async () => NONE;
  let starters: Promise<ReadonlySet<string>> | undefined;
  return () => (starters ??= dispatchesStore.startersOf(trx, executionId));
}

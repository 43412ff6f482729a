// Event chains: a workflow that an event started may emit events that start
// workflows again (its own trigger's type included, or a trigger on
// workflow.* reacting to its own workflows' ends). Each event carries its depth, the
// CloudEvents extension `chaindepth`: an event emitted by an execution that an
// event of depth d started has depth d + 1 (emit_event names its execution as
// the cause; workflow.completed/failed are caused by the execution they are
// about). The dispatcher starts nothing for an event at the maxChainDepth
// option (EVENTS_MAX_CHAIN_DEPTH in the default manifest) and records a failed
// dispatch instead, so a loop stops after that many links.
import type { EventInput, TenantTransaction } from 'agent-platform/sdk';
import { dispatchesStore } from '../store/triggers.ts';

export const DEFAULT_MAX_CHAIN_DEPTH = 8;
export const CHAIN_DEPTH_EXCEEDED = 'CHAIN_DEPTH_EXCEEDED';

const WORKFLOW_END = new Set(['workflow.completed', 'workflow.failed']);

/** The execution whose run caused this event, if any. */
function causeOf(input: EventInput): string | undefined {
  if (input.cause && typeof input.cause.execution_id === 'string') return input.cause.execution_id;
  const executionId = input.data?.execution_id;
  return WORKFLOW_END.has(input.type) && typeof executionId === 'string' ? executionId : undefined;
}

/**
 * The depth of a new event: one more than the event that started its causing
 * execution, else 0. The workflows plugin passes that depth along with the
 * cause when the execution's origin holds it (set by the dispatcher and
 * backfill, which know the event); otherwise it is read from the execution's
 * started dispatch record.
 */
export async function chainDepthOf(trx: TenantTransaction, input: EventInput): Promise<number> {
  const executionId = causeOf(input);
  if (executionId === undefined) return 0;
  const known = input.cause?.execution_id === executionId ? input.cause.chaindepth : undefined;
  if (Number.isInteger(known) && known! >= 0) return known! + 1;
  const causeDepth = await dispatchesStore.causeDepthOf(trx, executionId);
  return causeDepth === undefined ? 0 : causeDepth + 1;
}

/** Why an event starts no workflow, or undefined when it may. */
export function chainStop(event: { chaindepth?: number }, maxDepth: number): { status: 'failed'; dedup_key: null; error: string } | undefined {
  const depth = event.chaindepth ?? 0;
  if (depth < maxDepth) return undefined;
  return {
    status: 'failed',
    dedup_key: null,
    error: `${CHAIN_DEPTH_EXCEEDED}: the event is ${depth} links down a chain of workflows emitting events (EVENTS_MAX_CHAIN_DEPTH ${maxDepth}); no workflow was started`,
  };
}

// Whoever waits on a case, through the extension points of the plugins that
// own them (their api types only): a workflow's APPROVAL step (the gate the
// workflows plugin lets us register) and a chat turn suspended on
// request_approval (a suspending tool chat lets us register). When a case
// settles, the approvals.notify job hands them its outcome; both calls are
// idempotent (false when nobody waits any more), so a repeated job is harmless.
import type { CoreServices } from 'agent-platform/sdk';
import type { ChatApi, SuspendingTool } from '../../chat/api.ts';
import type { WorkflowGate, WorkflowsApi } from '../../workflows/api.ts';
import type { ApprovalCase } from '../api.ts';
import { outcomeOf, type Cases } from '../services/cases.ts';
import { casesStore } from '../store/approvals.ts';

export interface Peers {
  workflows(): WorkflowsApi | undefined;
  chat(): ChatApi | undefined;
}

export function workflowGate(cases: Cases): WorkflowGate {
  return {
    async open(trx, tenantId, ref, request) {
      await cases.open(trx, tenantId, request, { type: 'workflow', execution_id: ref.execution_id, step_id: ref.step_id, seq: ref.seq }, 'workflows');
    },
    async close(trx, tenantId, ref) {
      await cases.cancelAll(trx, tenantId, await casesStore.pendingOfStep(trx, ref.execution_id, ref.step_id));
    },
  };
}

export function requestApprovalTool(cases: Cases): SuspendingTool {
  return {
    async suspend(trx, call, args) {
      const { links: _links, ...input } = args;
      const row = await cases.open(trx, call.tenantId, input,
        { type: 'agent', session_id: call.sessionId, turn_id: call.turnId, tool_call_id: call.toolCallId }, call.principal.sub);
      return { status: 'awaiting_approval', details: { case_id: row.id } };
    },
    // The turn ended while waiting (cancelled, its session deleted): its case goes too.
    async release(trx, call) {
      await cases.cancelAll(trx, call.tenantId, await casesStore.pendingOfToolCall(trx, call.turnId, call.toolCallId));
    },
  };
}

/** Hands a settled case's outcome to whoever waits for it. */
export async function notifyWaiters(core: Pick<CoreServices, 'withTenant'>, peers: Peers, tenantId: string, caseId: string): Promise<void> {
  const row: ApprovalCase | undefined = await core.withTenant(tenantId, (trx) => casesStore.get(trx, caseId));
  if (!row || row.status === 'pending') return;
  const outcome = outcomeOf(row);
  const source = row.source;
  if (source.type === 'workflow' && source.seq !== undefined) {
    await peers.workflows()?.resolveGate(tenantId, { execution_id: source.execution_id, step_id: source.step_id, seq: source.seq }, { ...outcome });
  } else if (source.type === 'agent' && source.turn_id && source.tool_call_id) {
    await peers.chat()?.resumeTool(tenantId, source.turn_id, source.tool_call_id, {
      result: outcome, status: outcome.timed_out ? 'timed_out' : 'completed', details: { case_id: row.id, decision: row.status },
    });
  }
}

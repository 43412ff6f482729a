// request_approval: the platform function agents (and workflow ACTIONs) are
// granted to escalate to a person. In a chat turn whose surface can wait (the
// `ask_user` capability key) the turn suspends on it instead (peers/waiters.ts:
// requestApprovalTool) and this handler is not called; here, without a way
// to wait, it opens the case and answers at once {status: "pending",
// case_id} (the APPROVAL step is a workflow's blocking form).
import type { FunctionCallContext, FunctionDefinition } from 'agent-platform/sdk';
import type { ApprovalSource } from './api.ts';
import type { Cases } from './services/cases.ts';
import type { ApprovalsService } from './services/approvals.ts';

const names = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 255 }, maxItems: 100 };

function sourceOf(context: FunctionCallContext): ApprovalSource {
  const at = context.executionContext;
  if (at?.type === 'chat_session' && at.id) {
    return { type: 'agent', session_id: at.id, ...(at.turn ? { turn_id: at.turn.id, tool_call_id: at.turn.tool_call_id } : {}) };
  }
  if (at?.type === 'workflow_execution' && at.id) return { type: 'workflow', execution_id: at.id, step_id: at.step?.id ?? '' };
  return { type: 'api' };
}

export function requestApprovalFunction(cases: Cases, service: ApprovalsService): FunctionDefinition {
  return {
    description: 'Ask a person to approve or reject something before you go on. Returns {status, case_id}: in a chat that can wait, '
      + 'the decision ({case_id, status: approved|rejected|expired|cancelled, decisions, timed_out}); otherwise {status: "pending", case_id} at once '
      + '(tell the user it awaits approval). Approvers default to the tenant\'s admins.',
    parameters: {
      type: 'object',
      required: ['title'],
      additionalProperties: false,
      properties: {
        title: { type: 'string', minLength: 1, maxLength: 500, description: 'What is to be approved, in one line' },
        description: { type: 'string', maxLength: 10000 },
        payload: { description: 'The details to approve (any JSON)' },
        approvers: { type: 'object', additionalProperties: false, properties: { roles: names, users: names } },
        quorum: { type: 'integer', minimum: 1, maximum: 100 },
        timeout_seconds: { type: 'integer', minimum: 1, maximum: 2592000 },
        links: { type: 'boolean', description: 'Also return one-time decision links (to send by e-mail)' },
      },
    },
    handler: async (args, context) => {
      const { links, ...input } = args as Record<string, unknown>;
      const row = await context.withTenant(context.tenantId, (trx) => cases.open(trx, context.tenantId, input, sourceOf(context), context.principal.sub));
      return {
        status: 'pending', case_id: row.id,
        ...(links === true ? { links: await service.linksOf(context.tenantId, row) } : {}),
      };
    },
  };
}

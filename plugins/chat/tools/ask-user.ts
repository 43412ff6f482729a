// ask_user, the platform function an agent calls to ask the chat user a
// question. In a chat turn whose surface can answer it is a suspending tool
// (askUserTool): the turn waits for the answer (POST human-input) or its
// keyed timer (chat.ask_user_timeout), and the function's handler is never
// called. Without the capability the runner answers with the fallback itself;
// called from anywhere else (a workflow, the functions API) there is no user
// to ask, so the handler answers with the fallback.
import type { FunctionDefinition, JobsApi } from 'agent-platform/sdk';
import type { SuspendingTool } from '../api.ts';
import { ASK_USER_TIMEOUT_TASK, askUserJobKey } from '../turn/runtime.ts';
import { askUserResults } from '../turn/state.ts';

export const askUserFunction: FunctionDefinition = {
  description: 'Ask the user one short clarifying question and wait for the answer. Returns {status: answered, answer} '
    + 'or, when the user cannot be asked or does not answer in time, {status: unavailable | timed_out, answer: null}.',
  parameters: {
    properties: {
      question: { type: 'string', minLength: 1, maxLength: 2000, description: 'the question shown to the user' },
      options: { type: 'array', items: { type: 'string', maxLength: 200 }, maxItems: 10, description: 'suggested answers (optional)' },
    },
    required: ['question'],
    additionalProperties: false,
  },
  // Harmless (the fallback answer): any member of the tenant.
  roles: [],
  handler: async () => askUserResults.fallback(),
};

/** The suspension of ask_user: the question in the frame, a timer that hands the agent a timed-out result. */
export function askUserTool(jobs: Pick<JobsApi, 'enqueue' | 'removeJob'>, timeoutSeconds: number): SuspendingTool {
  return {
    // A call without a question is not asked: the agent gets the fallback.
    accepts: (args) => typeof args.question === 'string' && args.question.trim() !== '',
    async suspend(trx, call, args) {
      await jobs.enqueue(ASK_USER_TIMEOUT_TASK, { tenant_id: call.tenantId, turn_id: call.turnId, tool_call_id: call.toolCallId }, {
        trx, jobKey: askUserJobKey(call.turnId), runAt: new Date(Date.now() + timeoutSeconds * 1000),
      });
      const options = Array.isArray(args.options) ? args.options.map(String) : undefined;
      return { status: 'awaiting_input', details: { question: String(args.question), ...(options ? { options } : {}) } };
    },
    release: (trx, call) => jobs.removeJob(askUserJobKey(call.turnId), trx),
  };
}

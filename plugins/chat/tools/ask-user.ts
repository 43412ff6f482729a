// ask_user, the platform function an agent calls to ask the chat user a
// question. Its blocking behaviour lives in the turn runner (it never reaches
// this handler from a chat turn); called from anywhere else (a workflow, the
// functions API) there is no user to ask, so it answers with the fallback.
import type { FunctionDefinition } from 'agent-platform/sdk';
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
  handler: async () => askUserResults.fallback(),
};

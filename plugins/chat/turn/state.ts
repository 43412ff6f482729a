// What a turn carries from one model call to the next, persisted on the turn
// row while it waits for an ask_user answer, so any process can go on with it.
import type { Principal } from 'agent-platform/sdk';
import type { CapabilityKey } from './capabilities.ts';
import type { ResolvedAgent } from '../agents/resolved.ts';
import type { ModelMessage, ToolCall } from '../model/types.ts';

export interface ToolRecord {
  id: string;
  name: string;
  status: 'completed' | 'failed' | 'answered' | 'timed_out' | 'unavailable' | 'refused';
}

export interface TurnState {
  keys: CapabilityKey[];
  agent: ResolvedAgent;
  model: string;
  /** The caller, for tool calls made on their behalf (claims only, no secret). */
  principal: Principal;
  client_id: number;
  messages: ModelMessage[];
  iterations: number;
  tokens_used: number;
  /** The reply's text so far as it will be stored (widgets inline, citation blocks aside). */
  text: string;
  citation_blocks: string[];
  widgets: string[];
  tools: ToolRecord[];
  /** Tool calls of the last model reply not run yet (those after an ask_user). */
  pending_calls: ToolCall[];
  /** Set by the offline responder: the reply is extractive. */
  responder?: { kind: 'extractive'; sources: number };
}

/** The results the agent gets from ask_user: fallback (no ask_user key), answered, timed out. */
export const askUserResults = {
  fallback: () => ({
    status: 'unavailable',
    answer: null,
    message: 'This chat surface cannot ask the user a question. Do not ask; continue with your best assumption and say what you assumed.',
  }),
  answered: (answer: string) => ({ status: 'answered', answer }),
  timedOut: (seconds: number) => ({
    status: 'timed_out',
    answer: null,
    waited_seconds: seconds,
    message: 'The user did not answer in time. Continue without the answer and say what you assumed.',
  }),
};

// The end of a turn, written in one place whoever ends it: its runner (the
// answer is complete, failed, stopped or cancelled), a cancel that reaches a
// suspended turn (no runner holds it), or the sweep (its runner died). One
// transaction holds the stored reply, the last frames with any still pending,
// the turn's final row, the session's activity and the agent.loop event, so
// a reader never sees an end without the frames before it.
import type { TenantTransaction } from 'agent-platform/sdk';
import type { Emit } from '../events/emitter.ts';
import { messagesStore, sessionsStore } from '../store/sessions.ts';
import { framesStore, turnsStore } from '../store/turns.ts';
import type { PreparedFrame } from './channel.ts';
import type { ResolvedCitations } from './citations.ts';
import type { FrameBatch } from './frame-writer.ts';
import { encodeFrame, type Frame } from './frames.ts';
import type { TurnState } from './state.ts';

export interface TurnError {
  code: string;
  message: string;
  /** agent.loop.failed's `reason` (error, interrupted, shutdown, …_budget_exceeded). */
  reason?: string;
}

export interface TurnEnd {
  status: 'completed' | 'failed' | 'stopped' | 'cancelled';
  /** The reply was cut short (a stop, a cancel, a shutdown, a dead runner). */
  interrupted: boolean;
  error?: TurnError;
  /** The reply's citations (a completed turn); not stored for an interrupted one. */
  citations?: ResolvedCitations;
}

export interface EndingTurn {
  tenantId: string;
  sessionId: string;
  turnId: string;
  state: TurnState;
}

/** How the last frames get their seq: from the turn's live channel, or after the last one stored. */
export type NumberFrames = (frames: Frame[]) => PreparedFrame[];

/** Numbers frames after `lastSeq` (a turn no channel of this process holds). */
export const numberedAfter = (lastSeq: number): NumberFrames => (frames) =>
  frames.map((frame, i) => ({ seq: lastSeq + 1 + i, ...encodeFrame(lastSeq + 1 + i, frame) }));

export function batchOfPrepared(tenantId: string, turnId: string, frames: PreparedFrame[]): FrameBatch[] {
  if (frames.length === 0) return [];
  return [{
    tenant_id: tenantId, turn_id: turnId, first_seq: frames[0].seq, last_seq: frames.at(-1)!.seq,
    frames: `[${frames.map((f) => f.json).join(',')}]`,
  }];
}

/**
 * Writes the end of a turn in the caller's transaction (the turn's row locked
 * by it) and returns the last frames, for the caller to deliver to live
 * readers once it has committed.
 */
export async function writeTurnEnd(
  trx: TenantTransaction, emit: Emit, turn: EndingTurn, end: TurnEnd, numberFrames: NumberFrames, pending: FrameBatch[] = [],
): Promise<PreparedFrame[]> {
  const { tenantId, sessionId, turnId, state } = turn;
  const citations = end.interrupted ? undefined : end.citations;
  const error = end.error;
  const content = citations ? `${state.text.trimEnd()}\n\n${citations.block}` : state.text;
  const metadata: Record<string, unknown> = {
    interrupted: end.interrupted,
    ...(state.tools.length > 0 ? { tool_calls: state.tools } : {}),
    ...(state.widgets.length > 0 ? { widgets: state.widgets } : {}),
    ...(citations ? { citations: citations.entries } : {}),
    ...(state.responder ? { responder: state.responder } : {}),
    ...(error ? { error: { code: error.code, message: error.message } } : {}),
    iterations: state.iterations,
    tokens_used: state.tokens_used,
  };
  const message = await messagesStore.insert(trx, {
    tenant_id: tenantId, session_id: sessionId, turn_id: turnId, role: 'assistant', content, tool_metadata: metadata,
  });
  await citations?.assignMessage?.(trx, message.id);
  const frames: Frame[] = [];
  if (error) frames.push({ type: 'error', code: error.code, message: error.message });
  if (citations) frames.push({ type: 'citations', citations: citations.entries });
  frames.push({ type: 'message', message_id: message.id, interrupted: end.interrupted });
  frames.push({ type: 'done', status: end.status });
  const prepared = numberFrames(frames);
  await framesStore.insertBatches(trx, [...pending, ...batchOfPrepared(tenantId, turnId, prepared)]);
  await turnsStore.finish(trx, turnId, {
    status: end.status, assistant_message_id: message.id, last_seq: prepared.at(-1)!.seq, error: error?.message ?? null, state,
  });
  await sessionsStore.touch(trx, sessionId, '');
  const loop = {
    session_id: sessionId, turn_id: turnId, agent_name: state.agent.name,
    iterations: state.iterations, tokens_used: state.tokens_used, message_id: message.id,
  };
  if (end.status === 'failed') {
    await emit(trx, tenantId, 'agent.loop.failed', { ...loop, reason: error?.reason ?? 'error', error: error?.message ?? null });
  } else {
    await emit(trx, tenantId, 'agent.loop.completed', { ...loop, status: end.status });
  }
  return prepared;
}

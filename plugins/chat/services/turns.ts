// Turns as the routes see them: ask a question, answer an ask_user, cancel,
// and follow a turn's frames (resume after a dropped connection). Ownership
// is checked through the sessions service (one place: sessions/caller.ts);
// the turn's life itself is the lifecycle's (lifecycle.ts).
import { conflict, notFound, type Principal } from 'agent-platform/sdk';
import type { CapabilityKey } from '../turn/capabilities.ts';
import type { SessionsService } from './sessions.ts';
import type { SelectedClient } from '../sessions/caller.ts';
import { turnsStore } from '../store/turns.ts';
import type { Subscriber } from '../turn/channel.ts';
import { followTurn } from '../turn/follow.ts';
import type { Started, TurnLifecycle } from '../turn/lifecycle.ts';
import type { Runtime } from '../turn/runtime.ts';
import { askUserResults } from '../turn/state.ts';

export type { Started };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createTurnsService(rt: Runtime, lifecycle: TurnLifecycle, sessions: SessionsService) {
  const service = {
    /** A new question. Waits while a stop is finishing; another unfinished turn is a 409. */
    async ask(tenantId: string, principal: Principal, selected: SelectedClient, sessionId: string, content: string, keys: CapabilityKey[] = []): Promise<Started> {
      const waitUntil = Date.now() + rt.options.stopWaitMs + 5_000;
      for (;;) {
        const started = await lifecycle.start(tenantId, principal, selected, sessionId, content, keys);
        if (!('busy' in started)) return started;
        const busy = started.busy;
        if ((!busy || busy.status === 'cancelling') && Date.now() < waitUntil) {
          // "A question sent right after Stop waits until the stop has finished."
          await (busy ? lifecycle.settled(tenantId, busy.id, 200) : sleep(50));
          continue;
        }
        if (busy?.status === 'suspended') {
          throw conflict('The assistant is waiting for an answer to its question or for an approval: answer it (human-input), wait, or cancel', 'AWAITING_INPUT');
        }
        throw conflict('A question is already being answered in this session: wait for it or cancel it', 'TURN_IN_PROGRESS');
      }
    },

    /** The answer to a pending ask_user, by the session's owner (ownership, not the admin role, authorizes it). */
    async answer(tenantId: string, principal: Principal, selected: SelectedClient, sessionId: string, toolCallId: string, answer: string): Promise<Started> {
      // Ownership first (403 for anyone else), then the turn is taken under its row lock.
      await sessions.get(tenantId, principal, selected, sessionId);
      const started = await lifecycle.resume(tenantId, {
        find: (trx) => turnsStore.activeForUpdate(trx, sessionId).then((row) => row ?? turnsStore.latest(trx, sessionId)),
        toolCallId, outcome: { result: askUserResults.answered(answer), status: 'answered' }, strict: true, tool: 'ask_user',
      });
      return started!;
    },

    /** The keyed timer's job: 24 h (askUserTimeoutSeconds) without an answer. */
    timeOut: (tenantId: string, turnId: string, toolCallId: string): Promise<boolean> =>
      lifecycle.resumeTool(tenantId, turnId, toolCallId, { result: askUserResults.timedOut(rt.options.askUserTimeoutSeconds), status: 'timed_out' }),

    /** Stops the session's unfinished turn (only `turnId`'s, when given: a late cancel never stops the next question). */
    async cancel(tenantId: string, principal: Principal, selected: SelectedClient, sessionId: string, turnId?: string) {
      const decided = await sessions.owned(tenantId, principal, selected, sessionId, (trx) => lifecycle.requestCancel(trx, tenantId, sessionId, turnId));
      if (decided.turn_id) await lifecycle.awaitStop(tenantId, decided.turn_id);
      return { status: decided.status, session_id: sessionId, turn_id: decided.turn_id };
    },

    /** Stops whatever runs in a session being deleted. */
    stopActive: (tenantId: string, sessionId: string): Promise<void> => lifecycle.stopActive(tenantId, sessionId),

    /**
     * Replays a turn's frames after `after` and follows it until it ends (or
     * suspends). Returns a function that stops following.
     */
    async follow(tenantId: string, principal: Principal, selected: SelectedClient, sessionId: string, turnId: string | undefined, after: number, out: Subscriber) {
      const turn = await sessions.owned(tenantId, principal, selected, sessionId, (trx) =>
        turnId ? turnsStore.get(trx, turnId) : turnsStore.latest(trx, sessionId));
      if (!turn || turn.session_id !== sessionId) throw notFound('The session has no such turn', 'TURN_NOT_FOUND');
      return followTurn(rt, tenantId, turn.id, after, out);
    },
  };
  return service;
}

export type TurnsService = ReturnType<typeof createTurnsService>;

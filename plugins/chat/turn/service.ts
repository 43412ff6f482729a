// Turns as the routes see them: ask a question, answer an ask_user, cancel,
// and follow a turn's frames (resume after a dropped connection). Ownership
// is checked through the sessions service (one place: sessions/caller.ts).
import { conflict, domainError, notFound, type Principal, type TenantTransaction } from 'agent-platform/sdk';
import { capabilitiesOf, surfaceInstructions, type CapabilityKey } from '../capabilities.ts';
import { BUILTIN_AGENT, resolvedFrom } from '../agents/resolved.ts';
import { turnStartStore } from '../store/turn-start.ts';
import { assertOwns, resolveCaller } from '../sessions/caller.ts';
import { messagesStore } from '../store/sessions.ts';
import { ACTIVE, framesStore, turnsStore } from '../store/turns.ts';
import type { SessionsService } from '../sessions/service.ts';
import type { SelectedClient } from '../sessions/caller.ts';
import type { ModelMessage } from '../model/types.ts';
import type { Subscriber, TurnChannel } from './channel.ts';
import { sseOfJson, type Frame } from './frames.ts';
import { channelFor, launch, type TurnRef } from './runner.ts';
import { askUserJobKey, batchOfPrepared, type Runtime } from './runtime.ts';
import { askUserResults, type ToolRecord, type TurnState } from './state.ts';
import { encodeFrame } from './frames.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds a refused question should wait: a running turn usually ends within seconds. */
export const TURN_RETRY_AFTER_SECONDS = 5;

function tooManyTurns(limit: number) {
  const error = domainError(429, `Too many chat answers running for this tenant (limit ${limit}); retry later`, 'TURN_LIMIT_EXCEEDED');
  error.output.headers['Retry-After'] = String(TURN_RETRY_AFTER_SECONDS);
  return error;
}
const ENDED = new Set(['completed', 'stopped', 'cancelled', 'failed']);

export interface Started {
  turnId: string;
  channel: TurnChannel;
  /** Starts the run; call after subscribing, so no frame is missed. */
  go(): void;
}

type TurnRow = NonNullable<Awaited<ReturnType<typeof turnsStore.get>>>;

function systemPrompt(instructions: string, keys: CapabilityKey[], askUser: boolean): string {
  const capabilities = capabilitiesOf(keys);
  const parts = [instructions.trim(), surfaceInstructions(capabilities)];
  if (askUser) {
    parts.push(capabilities.askUser
      ? 'You may ask the user one short clarifying question with ask_user when you cannot answer without it.'
      : 'The user cannot be asked questions on this surface: ask_user returns at once without an answer.');
  }
  return parts.filter(Boolean).join('\n\n');
}

export function createTurnsService(rt: Runtime, sessions: SessionsService) {
  const { withTenant } = rt.core;

  /** Ends a suspended turn without a runner (a cancel, or its session deleted). */
  async function endSuspended(trx: TenantTransaction, tenantId: string, row: TurnRow, status: 'cancelled'): Promise<void> {
    const state = row.state as TurnState;
    const message = await messagesStore.insert(trx, {
      tenant_id: tenantId, session_id: row.session_id, turn_id: row.id, role: 'assistant', content: state.text,
      tool_metadata: { interrupted: true, ...(state.tools.length > 0 ? { tool_calls: state.tools } : {}), iterations: state.iterations, tokens_used: state.tokens_used },
    });
    const frames: Frame[] = [{ type: 'message', message_id: message.id, interrupted: true }, { type: 'done', status }];
    const prepared = frames.map((frame, i) => ({ seq: row.last_seq + 1 + i, ...encodeFrame(row.last_seq + 1 + i, frame) }));
    await rt.writer.writeIn(trx, batchOfPrepared(tenantId, row.id, prepared));
    await turnsStore.finish(trx, row.id, { status, assistant_message_id: message.id, last_seq: prepared.at(-1)!.seq, error: null });
    await rt.core.jobs.removeJob(askUserJobKey(row.id), trx);
    await rt.emit(trx, tenantId, 'agent.loop.completed', {
      session_id: row.session_id, turn_id: row.id, agent_name: state.agent.name, status,
      iterations: state.iterations, tokens_used: state.tokens_used, message_id: message.id,
    });
  }

  /** Waits until a turn has ended (or suspended), up to `ms`. */
  async function settled(tenantId: string, turnId: string, ms: number): Promise<void> {
    const local = rt.runs.get(turnId);
    if (local) {
      await Promise.race([local.done, sleep(ms)]);
      return;
    }
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const row = await withTenant(tenantId, (trx) => turnsStore.status(trx, turnId));
      if (!row || !ACTIVE.includes(row.status) || row.status === 'suspended') return;
      await sleep(Math.min(rt.options.followPollMs, 50));
    }
  }

  /** Takes a suspended turn up again in this process with the tool result of its pending ask_user. */
  async function resume(
    tenantId: string, find: (trx: TenantTransaction) => Promise<TurnRow | undefined>, toolCallId: string,
    result: Record<string, unknown>, status: ToolRecord['status'], strict: boolean,
  ): Promise<Started | undefined> {
    const taken = await withTenant(tenantId, async (trx) => {
      // An answer makes the turn run again: it counts against the tenant's
      // limit like a new question (the lock first, as a start takes it). The
      // timeout job is not refused: it only hands the agent a timed-out result.
      if (strict && await turnStartStore.lockAndCountRunning(trx, tenantId) >= rt.limits.maxTurnsPerTenant) {
        throw tooManyTurns(rt.limits.maxTurnsPerTenant);
      }
      const row = await find(trx);
      if (!row || row.status !== 'suspended' || row.pending_tool_call_id !== toolCallId) {
        if (!strict) return undefined;
        if (!row) throw notFound('The session has no question waiting for an answer', 'NO_PENDING_QUESTION');
        if (row.status !== 'suspended') throw conflict('The session has no question waiting for an answer', 'NO_PENDING_QUESTION');
        throw conflict(`No question waits for tool_call_id ${toolCallId}`, 'TOOL_CALL_MISMATCH');
      }
      const state = row.state as TurnState;
      const call = state.pending_calls.shift()!;
      state.messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
      state.tools.push({ id: call.id, name: 'ask_user', status });
      await turnsStore.resume(trx, row.id, { state, runner_id: rt.runs.runnerId });
      if (status === 'answered') await rt.core.jobs.removeJob(askUserJobKey(row.id), trx);
      await rt.emit(trx, tenantId, 'chat.tool.completed', {
        session_id: row.session_id, turn_id: row.id, tool_call_id: call.id, name: 'ask_user', outcome: status,
        duration_ms: Date.now() - new Date(row.updated_at).getTime(),
      });
      await rt.emit(trx, tenantId, 'agent.loop.started', { session_id: row.session_id, turn_id: row.id, agent_name: state.agent.name, resumed: true });
      const question = await messagesStore.get(trx, row.user_message_id);
      return { row, state, question: question?.content ?? '' };
    });
    if (!taken) return undefined;
    const { row, state, question } = taken;
    const channel = channelFor(rt, tenantId, row.id, row.last_seq);
    const ref: TurnRef = { tenantId, sessionId: row.session_id, turnId: row.id, userMessageId: row.user_message_id, question };
    return {
      turnId: row.id,
      channel,
      go() {
        channel.publish({ type: 'turn', turn_id: row.id, session_id: row.session_id, user_message_id: row.user_message_id, resumed: true });
        channel.publish({ type: 'tool_status', status: status === 'answered' ? 'answered' : 'timed_out', tool_call_id: toolCallId, name: 'ask_user' });
        launch(rt, ref, state, channel);
      },
    };
  }

  const service = {
    /** A new question. Waits while a stop is finishing; another unfinished turn is a 409. */
    async ask(tenantId: string, principal: Principal, selected: SelectedClient, sessionId: string, content: string, keys: CapabilityKey[] = []): Promise<Started> {
      const waitUntil = Date.now() + rt.options.stopWaitMs + 5_000;
      for (;;) {
        // Two questions racing on one session: the unique index on unfinished
        // turns lets one in; the other gets 23505 and is told the session is busy.
        const outcome = await withTenant(tenantId, async (trx) => {
          const caller = await resolveCaller(trx, tenantId, principal, selected);
          const session = assertOwns(caller, await turnStartStore.read(trx, tenantId, sessionId, rt.options.historyMessages), sessionId);
          if (session.active) return { busy: session.active };
          // The session's agent, else its client's default agent, else the built-in assistant.
          const row = session.own_agent ?? session.client_agent;
          const agent = row ? resolvedFrom(row) : BUILTIN_AGENT;
          const messages: ModelMessage[] = [
            { role: 'system', content: systemPrompt(agent.instructions, keys, agent.functions.includes('ask_user')) },
            ...session.history.filter((m) => m.content !== '').map((m) => ({ role: m.role, content: m.content }) as ModelMessage),
            { role: 'user', content },
          ];
          const state: TurnState = {
            keys, agent, model: agent.model.name ?? rt.modelName, principal, client_id: caller.clientId, messages,
            iterations: 0, tokens_used: 0, text: '', citation_blocks: [], widgets: [], tools: [], pending_calls: [],
          };
          const turnId = crypto.randomUUID();
          // Two questions racing on one session: the unique index on unfinished
          // turns lets one in; the other gets 23505 and is told the session is busy.
          const userMessageId = await turnStartStore.write(trx, {
            tenantId, sessionId, turnId, runnerId: rt.runs.runnerId, phase: rt.model ? 'model' : 'tool', content, state,
            title: content.replace(/\s+/g, ' ').trim().slice(0, 80), maxRunning: rt.limits.maxTurnsPerTenant,
          });
          // Past the tenant's limit nothing was written (no question, no turn).
          if (userMessageId === null) throw tooManyTurns(rt.limits.maxTurnsPerTenant);
          await rt.emit(trx, tenantId, 'agent.loop.started', { session_id: sessionId, turn_id: turnId, agent_name: agent.name, resumed: false });
          return { turnId, state, userMessageId };
        }).catch((err) => {
          if ((err as { code?: string }).code === '23505') return { busy: undefined };
          throw err;
        });
        if ('busy' in outcome) {
          const busy = outcome.busy;
          if ((!busy || busy.status === 'cancelling') && Date.now() < waitUntil) {
            // "A question sent right after Stop waits until the stop has finished."
            await (busy ? settled(tenantId, busy.id, 200) : sleep(50));
            continue;
          }
          if (busy?.status === 'suspended') {
            throw conflict('The assistant is waiting for an answer to its question: answer it (human-input) or cancel', 'AWAITING_INPUT');
          }
          throw conflict('A question is already being answered in this session: wait for it or cancel it', 'TURN_IN_PROGRESS');
        }
        const { turnId, state, userMessageId } = outcome;
        const channel = channelFor(rt, tenantId, turnId, 0);
        const ref: TurnRef = { tenantId, sessionId, turnId, userMessageId, question: content };
        return {
          turnId,
          channel,
          go() {
            channel.publish({ type: 'turn', turn_id: turnId, session_id: sessionId, user_message_id: userMessageId });
            launch(rt, ref, state, channel);
          },
        };
      }
    },

    /** The answer to a pending ask_user, by the session's owner (spec 4.2 rule 5). */
    async answer(tenantId: string, principal: Principal, selected: SelectedClient, sessionId: string, toolCallId: string, answer: string): Promise<Started> {
      // Ownership first (403 for anyone else), then the turn is taken under its row lock.
      await sessions.get(tenantId, principal, selected, sessionId);
      const started = await resume(tenantId, (trx) => turnsStore.activeForUpdate(trx, sessionId).then((row) => row ?? turnsStore.latest(trx, sessionId)),
        toolCallId, askUserResults.answered(answer), 'answered', true);
      return started!;
    },

    /** The keyed timer's job: 24 h (askUserTimeoutSeconds) without an answer. */
    async timeOut(tenantId: string, turnId: string, toolCallId: string): Promise<boolean> {
      const started = await resume(tenantId, (trx) => turnsStore.getForUpdate(trx, turnId), toolCallId,
        askUserResults.timedOut(rt.options.askUserTimeoutSeconds), 'timed_out', false);
      if (!started) return false;
      started.go();
      return true;
    },

    /** Stops the session's unfinished turn (only `turnId`'s, when given: a late cancel never stops the next question). */
    async cancel(tenantId: string, principal: Principal, selected: SelectedClient, sessionId: string, turnId?: string) {
      type Decided = { status: 'no_active_turn' | 'stopped' | 'cancelling'; turn_id: string | null };
      const decided = await sessions.owned(tenantId, principal, selected, sessionId, async (trx): Promise<Decided> => {
        const active = await turnsStore.activeForUpdate(trx, sessionId);
        if (!active || (turnId && active.id !== turnId)) return { status: 'no_active_turn', turn_id: null };
        if (active.status === 'cancelling') return { status: active.cancel_outcome ?? 'cancelling', turn_id: active.id };
        if (active.status === 'suspended') {
          await endSuspended(trx, tenantId, active, 'cancelled');
          return { status: 'cancelling' as const, turn_id: active.id };
        }
        const outcome = active.phase === 'model' ? 'stopped' as const : 'cancelling' as const;
        await turnsStore.requestCancel(trx, active.id, outcome);
        return { status: outcome, turn_id: active.id };
      });
      if (decided.turn_id) {
        rt.runs.abort(decided.turn_id);
        await settled(tenantId, decided.turn_id, rt.options.stopWaitMs);
      }
      return { status: decided.status, session_id: sessionId, turn_id: decided.turn_id };
    },

    /** Stops whatever runs in a session being deleted. */
    async stopActive(tenantId: string, sessionId: string): Promise<void> {
      const turnId = await withTenant(tenantId, async (trx) => {
        const active = await turnsStore.activeForUpdate(trx, sessionId);
        if (!active) return undefined;
        if (active.status === 'suspended') {
          await endSuspended(trx, tenantId, active, 'cancelled');
          return undefined;
        }
        if (active.status === 'running') await turnsStore.requestCancel(trx, active.id, active.phase === 'model' ? 'stopped' : 'cancelling');
        return active.id;
      });
      if (turnId) rt.runs.abort(turnId);
    },

    /**
     * Replays a turn's frames after `after` and follows it until it ends (or
     * suspends): from this process's channel when it runs here, else from
     * Postgres by polling. Returns a function that stops following.
     */
    async follow(tenantId: string, principal: Principal, selected: SelectedClient, sessionId: string, turnId: string | undefined, after: number, out: Subscriber) {
      const turn = await sessions.owned(tenantId, principal, selected, sessionId, (trx) =>
        turnId ? turnsStore.get(trx, turnId) : turnsStore.latest(trx, sessionId));
      if (!turn || turn.session_id !== sessionId) throw notFound('The session has no such turn', 'TURN_NOT_FOUND');
      let stopped = false;
      let detach: (() => void) | undefined;
      const loop = async () => {
        let seen = after;
        while (!stopped) {
          const local = rt.runs.get(turn.id);
          if (local) {
            const unsubscribe = local.channel.subscribe(seen, out);
            if (unsubscribe) {
              detach = unsubscribe;
              return;
            }
          }
          const [rows, status] = await withTenant(tenantId, async (trx) =>
            [await framesStore.after(trx, turn.id, seen), await turnsStore.status(trx, turn.id)] as const);
          const write = (frame: { seq: number }, json: string) => {
            if (frame.seq !== seen + 1) return false; // a gap: read again
            out.write(sseOfJson(frame.seq, json));
            seen = frame.seq;
            return true;
          };
          for (const row of rows) {
            for (const frame of JSON.parse(row.frames) as { seq: number }[]) {
              if (frame.seq > seen && !write(frame, JSON.stringify(frame))) break;
            }
          }
          // Frames this process published but has not flushed yet: what lies between Postgres and live.
          const queued = rt.runs.get(turn.id) ? rt.writer.pending(turn.id) : undefined;
          if (queued) {
            for (let i = Math.max(0, seen + 1 - queued.first); i < queued.items.length; i++) {
              if (!write({ seq: queued.first + i }, queued.items[i])) break;
            }
          }
          const live = rt.runs.get(turn.id);
          if (live) {
            const unsubscribe = live.channel.subscribe(seen, out);
            if (unsubscribe) {
              detach = unsubscribe;
              return;
            }
          }
          if (!status || ((ENDED.has(status.status) || status.status === 'suspended') && seen >= status.last_seq)) {
            out.end();
            return;
          }
          await sleep(rt.options.followPollMs);
        }
      };
      void loop().catch((err) => {
        rt.core.logger.warn({ err, turnId: turn.id }, 'chat: following a turn failed');
        out.end();
      });
      return () => {
        stopped = true;
        detach?.();
      };
    },
  };
  return service;
}

export type TurnsService = ReturnType<typeof createTurnsService>;

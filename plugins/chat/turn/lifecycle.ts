// The one owner of a chat turn's life. It starts a turn (a new question) and
// runs it in this process (runner.ts is the agent loop), suspends it on a
// tool that waits for a person (ask_user, and the suspending tools other
// plugins contribute: request_approval), takes it up again with that tool's
// result, cancels it, and ends it: whoever ends a turn (its runner, a cancel
// while it waits, the sweep after its runner died) writes the end through
// ending.ts. Ownership of sessions is the caller's (services/turns.ts).
import { conflict, domainError, notFound, type Principal, type TenantTransaction } from 'agent-platform/sdk';
import type { SuspendedCall, SuspendingTool, ToolOutcome } from '../api.ts';
import { BUILTIN_AGENT, resolvedFrom } from '../agents/resolved.ts';
import type { CapabilityKey } from './capabilities.ts';
import type { ModelMessage, ToolCall } from '../model/types.ts';
import { assertOwns, type SelectedClient } from '../sessions/caller.ts';
import { messagesStore } from '../store/sessions.ts';
import { turnStartStore } from '../store/turn-start.ts';
import { ACTIVE, turnsStore } from '../store/turns.ts';
import { TurnChannel, type PreparedFrame } from './channel.ts';
import { resolveCitations, type ResolvedCitations } from './citations.ts';
import { batchOfPrepared, numberedAfter, writeTurnEnd, type TurnEnd, type TurnError } from './ending.ts';
import type { LocalRun } from './local-runs.ts';
import { systemPrompt } from './prompt.ts';
import { TurnRun, type TurnRef } from './runner.ts';
import { TurnStartBatcher } from './start-batch.ts';
import type { Runtime } from './runtime.ts';
import type { TurnState } from './state.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds a refused question should wait: a running turn usually ends within seconds. */
export const TURN_RETRY_AFTER_SECONDS = 5;

function tooManyTurns(limit: number) {
  const error = domainError(429, `Too many chat answers running for this tenant (limit ${limit}); retry later`, 'TURN_LIMIT_EXCEEDED');
  error.output.headers['Retry-After'] = String(TURN_RETRY_AFTER_SECONDS);
  return error;
}

export interface Started {
  turnId: string;
  channel: TurnChannel;
  /** Starts the run; call after subscribing, so no frame is missed. */
  go(): void;
}

/** How the runner's loop ended. */
export interface Ending {
  status: 'completed' | 'failed';
  error?: TurnError;
  /** Set when the run was aborted (a cancel, or this process shutting down). */
  aborted?: boolean;
}

export type TurnRow = NonNullable<Awaited<ReturnType<typeof turnsStore.get>>>;
/** A session's unfinished turn (undefined: two questions raced, the other one won). */
type Busy = { id: string; status: string } | undefined;
type CancelDecision = { status: 'no_active_turn' | 'stopped' | 'cancelling'; turn_id: string | null };

/** Where a resume finds its turn, and how strictly a mismatch is reported. */
interface ResumeRequest {
  find(trx: TenantTransaction): Promise<TurnRow | undefined>;
  toolCallId: string;
  outcome: ToolOutcome;
  /** A person's answer: counts against the tenant's limit, and a mismatch is a 4xx (else: false). */
  strict: boolean;
  /** Only a call of this tool may be resumed (human-input answers ask_user only). */
  tool?: string;
}

function isClientError(err: unknown): err is { isBoom: true; output: { statusCode: number; payload: { message?: string } } } {
  const boom = err as { isBoom?: boolean; output?: { statusCode: number } };
  return Boolean(boom.isBoom && boom.output && boom.output.statusCode < 500);
}

export class TurnLifecycle {
  private readonly rt: Runtime;
  private readonly tools = new Map<string, SuspendingTool>();
  private readonly starts: TurnStartBatcher;

  constructor(rt: Runtime) {
    this.rt = rt;
    this.starts = new TurnStartBatcher(rt.core.withTenant, {
      runnerId: rt.runs.runnerId, maxRunning: rt.limits.maxTurnsPerTenant, historyLimit: rt.options.historyMessages,
    });
  }

  registerSuspendingTool(name: string, tool: SuspendingTool): void {
    if (this.tools.has(name)) throw new Error(`chat: the suspending tool ${name} is registered twice`);
    this.tools.set(name, tool);
  }

  suspendingTool(name: string): SuspendingTool | undefined {
    return this.tools.get(name);
  }

  /**
   * A new question: the session is read and checked and the turn written
   * (question, turn, session activity) with the other starts of the tenant
   * (start-batch.ts), and returned ready to run. `busy` when the session has
   * an unfinished turn (undefined when two questions raced for it).
   */
  async start(
    tenantId: string, principal: Principal, selected: SelectedClient, sessionId: string, content: string, keys: CapabilityKey[],
  ): Promise<Started | { busy: Busy }> {
    const written = await this.starts.start<{ turnId: string; state: TurnState }>(tenantId, {
      principal, selected, sessionId,
      build: (caller, read) => {
        const session = assertOwns(caller, read, sessionId);
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
          keys, agent, model: agent.model.name ?? this.rt.modelName, principal, client_id: caller.clientId, messages,
          iterations: 0, tokens_used: 0, text: '', citation_blocks: [], widgets: [], tools: [], pending_calls: [],
        };
        const turnId = crypto.randomUUID();
        return {
          values: { turn_id: turnId, phase: this.rt.model ? 'model' : 'tool', content, state, title: content.replace(/\s+/g, ' ').trim().slice(0, 80) },
          started: { turnId, state },
        };
      },
      announce: (trx, { turnId, state }) =>
        this.rt.emit(trx, tenantId, 'agent.loop.started', { session_id: sessionId, turn_id: turnId, agent_name: state.agent.name, resumed: false }),
    });
    if ('failed' in written) throw written.failed;
    if ('busy' in written) return written;
    // Past the tenant's limit nothing was written (no question, no turn).
    if ('refused' in written) throw tooManyTurns(this.rt.limits.maxTurnsPerTenant);
    const { userMessageId, started: { turnId, state } } = written;
    const channel = this.channelFor(tenantId, turnId, 0);
    const ref: TurnRef = { tenantId, sessionId, turnId, userMessageId, question: content };
    return {
      turnId,
      channel,
      go: () => {
        channel.publish({ type: 'turn', turn_id: turnId, session_id: sessionId, user_message_id: userMessageId });
        this.launch(ref, state, channel);
      },
    };
  }

  /**
   * Suspends a running turn on a call of a suspending tool: the tool's own
   * writes, the turn's state and its frames up to `awaiting_*` commit
   * together, and the run ends here. `failed` when the tool refused the call
   * (the turn goes on with that error as the result), `cancelled` when a
   * cancel landed first.
   */
  async suspend(run: TurnRun, call: ToolCall, tool: SuspendingTool, args: Record<string, unknown>): Promise<'suspended' | 'cancelled' | { failed: string }> {
    const { tenantId, turnId, sessionId } = run.ref;
    const batch = await this.rt.writer.take(turnId);
    const pending = batch ? [batch] : [];
    let prepared: PreparedFrame[] = [];
    try {
      const outcome = await this.rt.core.withTenant(tenantId, async (trx) => {
        const row = await turnsStore.getForUpdate(trx, turnId);
        if (!row || row.status !== 'running') {
          await this.rt.writer.writeIn(trx, pending);
          return 'cancelled' as const;
        }
        let suspension;
        try {
          suspension = await tool.suspend(trx, this.suspendedCall(tenantId, sessionId, turnId, call, run.state), args);
        } catch (err) {
          if (!isClientError(err)) throw err;
          await this.rt.writer.writeIn(trx, pending);
          return { failed: err.output.payload.message ?? 'refused' };
        }
        prepared = [
          run.channel.prepare({ type: 'tool_status', status: suspension.status, tool_call_id: call.id, name: call.function.name, ...suspension.details }),
          run.channel.prepare({ type: 'done', status: suspension.status }),
        ];
        await this.rt.writer.writeIn(trx, [...pending, ...batchOfPrepared(tenantId, turnId, prepared)]);
        await turnsStore.suspend(trx, turnId, { state: run.state, pending_tool_call_id: call.id, last_seq: prepared.at(-1)!.seq });
        await this.rt.emit(trx, tenantId, 'chat.tool.called', { session_id: sessionId, turn_id: turnId, tool_call_id: call.id, name: call.function.name });
        return 'suspended' as const;
      });
      if (outcome !== 'suspended') return outcome;
    } catch (err) {
      // Nothing committed: the frames taken for this transaction go back to the writer.
      if (batch) this.rt.writer.putBack(batch);
      throw err;
    }
    for (const frame of prepared) run.channel.deliver(frame);
    run.channel.end();
    return 'suspended';
  }

  /**
   * Takes a suspended turn up again in this process with the result of the
   * tool call it waits for. Undefined when it no longer waits for that call
   * (only when not strict).
   */
  async resume(tenantId: string, request: ResumeRequest): Promise<Started | undefined> {
    const { toolCallId, outcome, strict } = request;
    const taken = await this.rt.core.withTenant(tenantId, async (trx) => {
      // An answer makes the turn run again: it counts against the tenant's
      // limit like a new question (the lock first, as a start takes it). A
      // timer or another plugin's result is not refused: it only hands the
      // agent its result.
      if (strict && await turnStartStore.lockAndCountRunning(trx, tenantId) >= this.rt.limits.maxTurnsPerTenant) {
        throw tooManyTurns(this.rt.limits.maxTurnsPerTenant);
      }
      const row = await request.find(trx);
      const waiting = row?.status === 'suspended' && row.pending_tool_call_id === toolCallId;
      const state = row?.state as TurnState | undefined;
      const name = state?.pending_calls[0]?.function.name;
      if (!row || !waiting || (request.tool && name !== request.tool)) {
        if (!strict) return undefined;
        if (!row) throw notFound('The session has no question waiting for an answer', 'NO_PENDING_QUESTION');
        if (row.status !== 'suspended') throw conflict('The session has no question waiting for an answer', 'NO_PENDING_QUESTION');
        if (!waiting) throw conflict(`No question waits for tool_call_id ${toolCallId}`, 'TOOL_CALL_MISMATCH');
        throw conflict(`tool_call_id ${toolCallId} waits for ${name}, not for an answer`, 'TOOL_CALL_MISMATCH');
      }
      const call = state!.pending_calls.shift()!;
      state!.messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(outcome.result) });
      state!.tools.push({ id: call.id, name: call.function.name, status: outcome.status });
      await turnsStore.resume(trx, row.id, { state, runner_id: this.rt.runs.runnerId });
      await this.tools.get(call.function.name)?.release?.(trx, this.suspendedCall(tenantId, row.session_id, row.id, call, state!));
      await this.rt.emit(trx, tenantId, 'chat.tool.completed', {
        session_id: row.session_id, turn_id: row.id, tool_call_id: call.id, name: call.function.name, outcome: outcome.status,
        duration_ms: Date.now() - new Date(row.updated_at).getTime(),
      });
      await this.rt.emit(trx, tenantId, 'agent.loop.started', { session_id: row.session_id, turn_id: row.id, agent_name: state!.agent.name, resumed: true });
      const question = await messagesStore.get(trx, row.user_message_id);
      return { row, state: state!, call, question: question?.content ?? '' };
    });
    if (!taken) return undefined;
    const { row, state, call, question } = taken;
    const channel = this.channelFor(tenantId, row.id, row.last_seq);
    const ref: TurnRef = { tenantId, sessionId: row.session_id, turnId: row.id, userMessageId: row.user_message_id, question };
    return {
      turnId: row.id,
      channel,
      go: () => {
        channel.publish({ type: 'turn', turn_id: row.id, session_id: row.session_id, user_message_id: row.user_message_id, resumed: true });
        channel.publish({ type: 'tool_status', status: outcome.status, tool_call_id: toolCallId, name: call.function.name, ...outcome.details });
        this.launch(ref, state, channel);
      },
    };
  }

  /** A timer or another plugin hands a suspended turn its result; the turn runs on in this process. */
  async resumeTool(tenantId: string, turnId: string, toolCallId: string, outcome: ToolOutcome): Promise<boolean> {
    const started = await this.resume(tenantId, { find: (trx) => turnsStore.getForUpdate(trx, turnId), toolCallId, outcome, strict: false });
    started?.go();
    return Boolean(started);
  }

  /** The runner's loop ended: the reply is stored and the turn ends (completed, failed, or as the cancel that reached it says). */
  async finish(run: TurnRun, ending: Ending): Promise<void> {
    const { tenantId, turnId, sessionId } = run.ref;
    run.keepCutOffText();
    let citations: ResolvedCitations | undefined;
    if (ending.status === 'completed' && !run.signal.aborted) {
      try {
        citations = await resolveCitations(this.rt.citations(), tenantId, run.state.citation_blocks,
          { type: 'chat_session', id: sessionId, client_id: run.state.client_id });
      } catch (err) {
        this.rt.core.logger.warn({ err, turnId }, 'chat: resolving citations failed');
      }
    }
    const batch = await this.rt.writer.take(turnId);
    const pending = batch ? [batch] : [];
    let prepared: PreparedFrame[] = [];
    await this.rt.core.withTenant(tenantId, async (trx) => {
      const row = await turnsStore.getForUpdate(trx, turnId);
      if (!row || (row.status !== 'running' && row.status !== 'cancelling') || row.runner_id !== this.rt.runs.runnerId) {
        await this.rt.writer.writeIn(trx, pending);
        return; // someone else ended it (a sweep after this process was thought dead)
      }
      let end: TurnEnd = { status: ending.status, interrupted: false, error: ending.error, citations };
      if (row.status === 'cancelling') {
        end = { status: row.cancel_outcome === 'stopped' ? 'stopped' : 'cancelled', interrupted: true };
      } else if (ending.aborted) {
        end = { status: 'failed', interrupted: true, error: { code: 'INTERRUPTED', reason: 'shutdown', message: 'The server stopped while answering' } };
      }
      // Frames after a stop would be published after it: only the end is told.
      prepared = await writeTurnEnd(trx, this.rt.emit, { tenantId, sessionId, turnId, state: run.state }, end,
        (frames) => frames.map((frame) => run.channel.prepare(frame)), pending);
    });
    for (const frame of prepared) run.channel.deliver(frame);
    run.channel.end();
  }

  /**
   * The cancel of a session's unfinished turn (only `turnId`'s, when given: a
   * late cancel never stops the next question), in the caller's transaction.
   * A suspended turn ends here; a running one is asked to stop (awaitStop).
   */
  async requestCancel(trx: TenantTransaction, tenantId: string, sessionId: string, turnId?: string): Promise<CancelDecision> {
    const active = await turnsStore.activeForUpdate(trx, sessionId);
    if (!active || (turnId && active.id !== turnId)) return { status: 'no_active_turn', turn_id: null };
    if (active.status === 'cancelling') return { status: active.cancel_outcome ?? 'cancelling', turn_id: active.id };
    if (active.status === 'suspended') {
      await this.endSuspended(trx, tenantId, active, 'cancelled');
      return { status: 'cancelling', turn_id: active.id };
    }
    const outcome = active.phase === 'model' ? 'stopped' as const : 'cancelling' as const;
    await turnsStore.requestCancel(trx, active.id, outcome);
    return { status: outcome, turn_id: active.id };
  }

  /** After a cancel committed: abort the run if it is here, and wait (up to stopWaitMs) for it to end. */
  async awaitStop(tenantId: string, turnId: string): Promise<void> {
    this.rt.runs.abort(turnId);
    await this.settled(tenantId, turnId, this.rt.options.stopWaitMs);
  }

  /** Stops whatever runs in a session being deleted. */
  async stopActive(tenantId: string, sessionId: string): Promise<void> {
    const turnId = await this.rt.core.withTenant(tenantId, async (trx) => {
      const active = await turnsStore.activeForUpdate(trx, sessionId);
      if (!active) return undefined;
      if (active.status === 'suspended') {
        await this.endSuspended(trx, tenantId, active, 'cancelled');
        return undefined;
      }
      if (active.status === 'running') await turnsStore.requestCancel(trx, active.id, active.phase === 'model' ? 'stopped' : 'cancelling');
      return active.id;
    });
    if (turnId) this.rt.runs.abort(turnId);
  }

  /** Waits until a turn has ended (or suspended), up to `ms`. */
  async settled(tenantId: string, turnId: string, ms: number): Promise<void> {
    const local = this.rt.runs.get(turnId);
    if (local) {
      await Promise.race([local.done, sleep(ms)]);
      return;
    }
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const row = await this.rt.core.withTenant(tenantId, (trx) => turnsStore.status(trx, turnId));
      if (!row || !ACTIVE.includes(row.status) || row.status === 'suspended') return;
      await sleep(Math.min(this.rt.options.followPollMs, 50));
    }
  }

  /** Ends a suspended turn without a runner (a cancel, or its session deleted): its tool lets go of the wait. */
  private async endSuspended(trx: TenantTransaction, tenantId: string, row: TurnRow, status: 'cancelled'): Promise<void> {
    const state = row.state as TurnState;
    const call = state.pending_calls[0];
    if (call) await this.tools.get(call.function.name)?.release?.(trx, this.suspendedCall(tenantId, row.session_id, row.id, call, state));
    await writeTurnEnd(trx, this.rt.emit, { tenantId, sessionId: row.session_id, turnId: row.id, state }, { status, interrupted: true },
      numberedAfter(row.last_seq));
  }

  private suspendedCall(tenantId: string, sessionId: string, turnId: string, call: ToolCall, state: TurnState): SuspendedCall {
    return {
      tenantId, sessionId, turnId, toolCallId: call.id, name: call.function.name, principal: state.principal, clientId: state.client_id,
    };
  }

  /** A channel whose frames the writer persists in batches. */
  private channelFor(tenantId: string, turnId: string, afterSeq: number): TurnChannel {
    return new TurnChannel(turnId, afterSeq, (seq, json) => this.rt.writer.add(tenantId, turnId, seq, json));
  }

  /** Starts running a turn in this process (a new question, or a suspended turn taken up again). */
  private launch(ref: TurnRef, state: TurnState, channel: TurnChannel): LocalRun {
    const controller = new AbortController();
    const run: LocalRun = { tenantId: ref.tenantId, turnId: ref.turnId, controller, channel, done: Promise.resolve() };
    run.done = new TurnRun(this.rt, this, ref, state, channel, controller.signal).run()
      .catch((err) => this.rt.core.logger.error({ err, turnId: ref.turnId }, 'chat: a turn could not record its end'));
    this.rt.runs.add(run);
    return run;
  }
}

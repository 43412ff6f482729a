// The agent loop of one turn, in the process that runs it: model call (text
// streamed through the widget filter), then the tool calls it asked for,
// until the model answers without tools, a budget is exceeded, a cancel lands
// or ask_user suspends the turn. Every frame goes to the local subscribers at
// once and to Postgres in batches; how a turn ends (or suspends) is written in
// one transaction with its last frames, so a reader never sees an end without
// the frames before it.
import type { FunctionCallContext } from 'agent-platform/sdk';
import { capabilitiesOf, parserConfigOf } from '../capabilities.ts';
import { WidgetStreamParser, type ParserOutput } from '../widgets/stream-parser.ts';
import { isAbort, ModelError, type ToolCall, type ToolSpec } from '../model/types.ts';
import { offlineAnswer } from '../offline/responder.ts';
import { messagesStore, sessionsStore } from '../store/sessions.ts';
import { turnsStore } from '../store/turns.ts';
import { TurnChannel, type PreparedFrame } from './channel.ts';
import type { Frame } from './frames.ts';
import { resolveCitations, type ResolvedCitations } from './citations.ts';
import { askUserResults, type ToolRecord, type TurnState } from './state.ts';
import { ASK_USER_TIMEOUT_TASK, askUserJobKey, batchOfPrepared, type Runtime } from './runtime.ts';
import type { LocalRun } from './local-runs.ts';

export interface TurnRef {
  tenantId: string;
  sessionId: string;
  turnId: string;
  userMessageId: number;
  /** The user's question (the offline responder searches with it). */
  question: string;
}

interface Ending {
  status: 'completed' | 'failed';
  error?: { code: string; message: string; reason?: string };
  /** Set when the run was aborted (a cancel, or this process shutting down). */
  aborted?: boolean;
}

class Cancelled extends Error {}
class ToolInputError extends Error {}

const estimateTokens = (chars: number) => Math.ceil(chars / 4);

/** A channel whose frames the writer persists in batches. */
export function channelFor(rt: Runtime, tenantId: string, turnId: string, afterSeq: number): TurnChannel {
  return new TurnChannel(turnId, afterSeq, (seq, json) => rt.writer.add(tenantId, turnId, seq, json));
}

/** Starts running a turn in this process (a new question, or a suspended turn taken up again). */
export function launch(rt: Runtime, ref: TurnRef, state: TurnState, channel: TurnChannel): LocalRun {
  const controller = new AbortController();
  const run: LocalRun = { tenantId: ref.tenantId, turnId: ref.turnId, controller, channel, done: Promise.resolve() };
  run.done = new TurnRun(rt, ref, state, channel, controller.signal).run()
    .catch((err) => rt.core.logger.error({ err, turnId: ref.turnId }, 'chat: a turn could not record its end'));
  rt.runs.add(run);
  return run;
}

class TurnRun {
  private readonly rt: Runtime;
  private readonly ref: TurnRef;
  private readonly state: TurnState;
  private readonly channel: TurnChannel;
  private readonly signal: AbortSignal;
  /** The first step of a new turn was entered when the turn was created (no handshake needed). */
  private entered: boolean;
  /** The model call in progress: its streamed text is kept if a stop cuts it off. */
  private current: WidgetStreamParser | undefined;
  private tools: ToolSpec[] | undefined;

  constructor(rt: Runtime, ref: TurnRef, state: TurnState, channel: TurnChannel, signal: AbortSignal) {
    this.rt = rt;
    this.ref = ref;
    this.state = state;
    this.channel = channel;
    this.signal = signal;
    this.entered = state.iterations === 0 && state.pending_calls.length === 0 && state.tools.length === 0;
  }

  private publish(frame: Frame): void {
    if (!this.signal.aborted) this.channel.publish(frame);
  }

  private context(): FunctionCallContext & { clientId: number } {
    return {
      tenantId: this.ref.tenantId, principal: this.state.principal, withTenant: this.rt.core.withTenant,
      logger: this.rt.core.logger, executionContext: { type: 'chat_session', id: this.ref.sessionId }, clientId: this.state.client_id,
    };
  }

  private emit(type: string, data: Record<string, unknown>): Promise<void> {
    return this.rt.core.withTenant(this.ref.tenantId, (trx) => this.rt.emit(trx, this.ref.tenantId, type, data));
  }

  private enterPhase(phase: 'model' | 'tool'): Promise<boolean> {
    if (this.entered) {
      this.entered = false;
      return Promise.resolve(!this.signal.aborted);
    }
    return this.rt.core.withTenant(this.ref.tenantId, (trx) => turnsStore.enterPhase(trx, this.ref.turnId, this.rt.runs.runnerId, phase));
  }

  async run(): Promise<void> {
    try {
      if (this.state.pending_calls.length > 0 && (await this.runTools()) === 'suspended') return;
      if (!this.rt.model) return await this.offline();
      const agent = this.state.agent;
      for (;;) {
        if (this.state.iterations >= agent.max_iterations) {
          return await this.end({ status: 'failed', error: { code: 'ITERATION_BUDGET_EXCEEDED', reason: 'iteration_budget_exceeded', message: `The agent did not finish within ${agent.max_iterations} model calls` } });
        }
        const reply = await this.modelCall();
        if (this.state.tokens_used > agent.token_budget) {
          return await this.end({ status: 'failed', error: { code: 'TOKEN_BUDGET_EXCEEDED', reason: 'token_budget_exceeded', message: `The agent used ${this.state.tokens_used} tokens, over its budget of ${agent.token_budget}` } });
        }
        if (reply.toolCalls.length === 0) return await this.end({ status: 'completed' });
        this.state.pending_calls = [...reply.toolCalls];
        if ((await this.runTools()) === 'suspended') return;
      }
    } catch (err) {
      if (this.signal.aborted || isAbort(err) || err instanceof Cancelled) return this.end({ status: 'failed', aborted: true });
      const code = err instanceof ModelError ? err.code : 'TURN_FAILED';
      const message = err instanceof ModelError ? err.message : 'The answer failed because of an internal error';
      if (!(err instanceof ModelError)) this.rt.core.logger.error({ err, turnId: this.ref.turnId }, 'chat: turn failed');
      return this.end({ status: 'failed', error: { code, message, reason: 'error' } });
    }
  }

  private async toolSpecs(): Promise<ToolSpec[]> {
    if (this.tools) return this.tools;
    const specs: ToolSpec[] = [];
    for (const name of this.state.agent.functions) {
      try {
        const fn = await this.rt.core.functions.describe(this.ref.tenantId, name);
        specs.push({ type: 'function', function: { name, description: fn.description, parameters: { type: 'object', ...fn.parameters } } });
      } catch {
        // Granted but not available now (its plugin is not loaded): not offered.
      }
    }
    this.tools = specs;
    return specs;
  }

  private relay(outputs: ParserOutput[], wrote: { yes: boolean }): void {
    for (const output of outputs) {
      if (output.kind === 'text') {
        if (!wrote.yes) {
          wrote.yes = true;
          this.publish({ type: 'activity', activity: 'writing' });
        }
        this.publish({ type: 'text', delta: output.text });
      } else {
        this.publish({ type: 'widget', widget_type: output.widgetType, data: output.data });
      }
    }
  }

  private async modelCall() {
    if (!(await this.enterPhase('model'))) throw new Cancelled();
    this.publish({ type: 'activity', activity: 'thinking' });
    const parser = new WidgetStreamParser(parserConfigOf(capabilitiesOf(this.state.keys)));
    this.current = parser;
    const wrote = { yes: false };
    const settings = this.state.agent.model;
    const tools = await this.toolSpecs();
    const reply = await this.rt.model!.stream({
      model: this.state.model, messages: this.state.messages, tools,
      temperature: settings.temperature, top_p: settings.top_p, max_tokens: settings.max_output_tokens,
    }, { signal: this.signal, onText: (delta) => this.relay(parser.push(delta), wrote) });
    this.relay(parser.end(), wrote);
    this.current = undefined;
    this.absorb(parser);
    this.state.iterations++;
    this.state.tokens_used += reply.usage
      ? reply.usage.prompt_tokens + reply.usage.completion_tokens
      : estimateTokens(JSON.stringify(this.state.messages).length + reply.text.length);
    this.state.messages.push({
      role: 'assistant', content: reply.text || null, ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls } : {}),
    });
    if (this.state.agent.emit_iteration_events) {
      await this.emit('agent.loop.iteration', {
        session_id: this.ref.sessionId, turn_id: this.ref.turnId, agent_name: this.state.agent.name,
        iteration: this.state.iterations, tool_calls: reply.toolCalls.map((c) => c.function.name), tokens_used: this.state.tokens_used,
      });
    }
    return reply;
  }

  private absorb(parser: WidgetStreamParser): void {
    this.state.text += parser.persisted;
    this.state.citation_blocks.push(...parser.citationBlocks);
    this.state.widgets.push(...parser.liftedWidgets);
  }

  /** Runs the pending tool calls in order; an ask_user the surface can answer suspends the turn. */
  private async runTools(): Promise<'continue' | 'suspended'> {
    const capabilities = capabilitiesOf(this.state.keys);
    while (this.state.pending_calls.length > 0) {
      const call = this.state.pending_calls[0];
      if (!(await this.enterPhase('tool'))) throw new Cancelled();
      const name = call.function.name;
      const granted = this.state.agent.functions.includes(name);
      if (name === 'ask_user' && granted && capabilities.askUser) {
        const args = parseArgs(call);
        if (args && typeof args.question === 'string' && args.question.trim() !== '') {
          await this.suspend(call, args.question, Array.isArray(args.options) ? args.options.map(String) : undefined);
          return 'suspended';
        }
      }
      this.state.pending_calls.shift();
      const { result, record } = name === 'ask_user' && granted ? await this.askUserFallback(call) : await this.callTool(call, granted);
      this.state.tools.push(record);
      const content = JSON.stringify(result ?? null);
      this.state.messages.push({
        role: 'tool', tool_call_id: call.id,
        content: content.length > this.rt.options.maxToolResultChars ? `${content.slice(0, this.rt.options.maxToolResultChars)}… (truncated)` : content,
      });
    }
    return 'continue';
  }

  /** Rule 4: the surface cannot ask, so the agent gets an immediate answer that says so. */
  private async askUserFallback(call: ToolCall): Promise<{ result: unknown; record: ToolRecord }> {
    const base = { session_id: this.ref.sessionId, turn_id: this.ref.turnId, tool_call_id: call.id, name: 'ask_user' };
    await this.emit('chat.tool.called', base);
    await this.emit('chat.tool.completed', { ...base, duration_ms: 0, outcome: 'unavailable' });
    return { result: askUserResults.fallback(), record: { id: call.id, name: 'ask_user', status: 'unavailable' } };
  }

  private async callTool(call: ToolCall, granted: boolean): Promise<{ result: unknown; record: ToolRecord }> {
    const name = call.function.name;
    const base = { session_id: this.ref.sessionId, turn_id: this.ref.turnId, tool_call_id: call.id, name };
    if (!granted) {
      this.publish({ type: 'tool_status', status: 'failed', tool_call_id: call.id, name, error: 'not granted' });
      await this.emit('chat.tool.failed', { ...base, error: 'The agent is not granted this function', duration_ms: 0 });
      return { result: { error: `The function ${name} is not available to you.` }, record: { id: call.id, name, status: 'refused' } };
    }
    this.publish({ type: 'activity', activity: 'looking_up' });
    this.publish({ type: 'tool_status', status: 'running', tool_call_id: call.id, name });
    await this.emit('chat.tool.called', base);
    const started = Date.now();
    const args = parseArgs(call);
    try {
      if (!args) throw new ToolInputError('The arguments are not a JSON object');
      const result = await abortable(this.rt.core.functions.call(name, args, this.context()), this.signal);
      this.publish({ type: 'tool_status', status: 'completed', tool_call_id: call.id, name });
      await this.emit('chat.tool.completed', { ...base, duration_ms: Date.now() - started });
      return { result, record: { id: call.id, name, status: 'completed' } };
    } catch (err) {
      if (this.signal.aborted) throw err;
      // The agent sees why (a validation message, a 4xx of the target); internals stay in the log.
      const boom = err as { isBoom?: boolean; output?: { payload?: { message?: string } } };
      const message = err instanceof ToolInputError ? err.message : boom.isBoom ? (boom.output?.payload?.message ?? 'failed') : 'The function failed';
      if (!boom.isBoom && !(err instanceof ToolInputError)) this.rt.core.logger.warn({ err, function: name }, 'chat: tool failed');
      this.publish({ type: 'tool_status', status: 'failed', tool_call_id: call.id, name, error: message });
      await this.emit('chat.tool.failed', { ...base, error: message, duration_ms: Date.now() - started });
      return { result: { error: message }, record: { id: call.id, name, status: 'failed' } };
    }
  }

  private async offline(): Promise<void> {
    if (!(await this.enterPhase('tool'))) throw new Cancelled();
    this.publish({ type: 'activity', activity: 'looking_up' });
    const { text, sources } = await offlineAnswer(
      { core: this.rt.core, ingestion: this.rt.ingestion(), citations: this.rt.citations() }, this.ref.question, this.context(),
    );
    const parser = new WidgetStreamParser(parserConfigOf(capabilitiesOf(this.state.keys)));
    this.relay([...parser.push(text), ...parser.end()], { yes: false });
    this.absorb(parser);
    this.state.responder = { kind: 'extractive', sources };
    await this.end({ status: 'completed' });
  }

  /** ask_user with a surface that can answer: the turn waits, with its state in Postgres. */
  private async suspend(call: ToolCall, question: string, options: string[] | undefined): Promise<void> {
    const { tenantId, turnId, sessionId } = this.ref;
    const batch = await this.rt.writer.take(turnId);
    let prepared: PreparedFrame[] = [];
    const suspended = await this.rt.core.withTenant(tenantId, async (trx) => {
      const row = await turnsStore.getForUpdate(trx, turnId);
      if (!row || row.status !== 'running') return false;
      prepared = [
        this.channel.prepare({ type: 'tool_status', status: 'awaiting_input', tool_call_id: call.id, name: 'ask_user', question, ...(options ? { options } : {}) }),
        this.channel.prepare({ type: 'done', status: 'awaiting_input' }),
      ];
      await this.rt.writer.writeIn(trx, [...(batch ? [batch] : []), ...batchOfPrepared(tenantId, turnId, prepared)]);
      await turnsStore.suspend(trx, turnId, { state: this.state, pending_tool_call_id: call.id, last_seq: prepared.at(-1)!.seq });
      await this.rt.emit(trx, tenantId, 'chat.tool.called', { session_id: sessionId, turn_id: turnId, tool_call_id: call.id, name: 'ask_user' });
      await this.rt.core.jobs.enqueue(ASK_USER_TIMEOUT_TASK, { tenant_id: tenantId, turn_id: turnId, tool_call_id: call.id }, {
        trx, jobKey: askUserJobKey(turnId), runAt: new Date(Date.now() + this.rt.options.askUserTimeoutSeconds * 1000),
      });
      return true;
    });
    if (!suspended) {
      // A cancel landed between the phase check and here: end as it asks.
      if (batch) await this.rt.core.withTenant(tenantId, (trx) => this.rt.writer.writeIn(trx, [batch]));
      throw new Cancelled();
    }
    for (const frame of prepared) this.channel.deliver(frame);
    this.channel.end();
  }

  /** Stores the reply and ends the turn (completed, failed, or as the cancel that reached it says). */
  private async end(ending: Ending): Promise<void> {
    const { tenantId, turnId, sessionId } = this.ref;
    if (this.current) {
      // Cut off mid-stream: keep what was streamed, nothing more.
      this.absorb(this.current);
      this.current = undefined;
    }
    let citations: ResolvedCitations | undefined;
    if (ending.status === 'completed' && !this.signal.aborted) {
      try {
        citations = await resolveCitations(this.rt.citations(), tenantId, this.state.citation_blocks,
          { type: 'chat_session', id: sessionId, client_id: this.state.client_id });
      } catch (err) {
        this.rt.core.logger.warn({ err, turnId }, 'chat: resolving citations failed');
      }
    }
    const batch = await this.rt.writer.take(turnId);
    let prepared: PreparedFrame[] = [];
    await this.rt.core.withTenant(tenantId, async (trx) => {
      const row = await turnsStore.getForUpdate(trx, turnId);
      if (!row || (row.status !== 'running' && row.status !== 'cancelling') || row.runner_id !== this.rt.runs.runnerId) {
        if (batch) await this.rt.writer.writeIn(trx, [batch]);
        return; // someone else ended it (a sweep after this process was thought dead)
      }
      let status: 'completed' | 'failed' | 'stopped' | 'cancelled' = ending.status;
      let interrupted = false;
      let error = ending.error;
      if (row.status === 'cancelling') {
        status = row.cancel_outcome === 'stopped' ? 'stopped' : 'cancelled';
        interrupted = true;
        error = undefined;
      } else if (ending.aborted) {
        status = 'failed';
        interrupted = true;
        error = { code: 'INTERRUPTED', reason: 'shutdown', message: 'The server stopped while answering' };
      }
      const content = citations && !interrupted ? `${this.state.text.trimEnd()}\n\n${citations.block}` : this.state.text;
      const metadata: Record<string, unknown> = {
        interrupted,
        ...(this.state.tools.length > 0 ? { tool_calls: this.state.tools } : {}),
        ...(this.state.widgets.length > 0 ? { widgets: this.state.widgets } : {}),
        ...(citations && !interrupted ? { citations: citations.entries } : {}),
        ...(this.state.responder ? { responder: this.state.responder } : {}),
        ...(error ? { error: { code: error.code, message: error.message } } : {}),
        iterations: this.state.iterations,
        tokens_used: this.state.tokens_used,
      };
      const message = await messagesStore.insert(trx, {
        tenant_id: tenantId, session_id: sessionId, turn_id: turnId, role: 'assistant', content, tool_metadata: metadata,
      });
      const frames: Frame[] = [];
      if (error) frames.push({ type: 'error', code: error.code, message: error.message });
      if (citations && !interrupted) frames.push({ type: 'citations', citations: citations.entries });
      frames.push({ type: 'message', message_id: message.id, interrupted });
      frames.push({ type: 'done', status });
      // Frames after a stop would be published after it: only the end is told.
      prepared = frames.map((frame) => this.channel.prepare(frame));
      await this.rt.writer.writeIn(trx, [...(batch ? [batch] : []), ...batchOfPrepared(tenantId, turnId, prepared)]);
      await turnsStore.finish(trx, turnId, {
        status, assistant_message_id: message.id, last_seq: prepared.at(-1)!.seq, error: error?.message ?? null, state: this.state,
      });
      await sessionsStore.touch(trx, sessionId, '');
      const loop = {
        session_id: sessionId, turn_id: turnId, agent_name: this.state.agent.name,
        iterations: this.state.iterations, tokens_used: this.state.tokens_used, message_id: message.id,
      };
      if (status === 'failed') {
        await this.rt.emit(trx, tenantId, 'agent.loop.failed', { ...loop, reason: error?.reason ?? 'error', error: error?.message ?? null });
      } else {
        await this.rt.emit(trx, tenantId, 'agent.loop.completed', { ...loop, status });
      }
    });
    for (const frame of prepared) this.channel.deliver(frame);
    this.channel.end();
  }
}

function parseArgs(call: ToolCall): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(call.function.arguments || '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A tool cannot be interrupted, but the turn need not wait for it once cancelled. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

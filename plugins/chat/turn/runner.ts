// The agent loop of one turn, in the process that runs it: model call (text
// streamed through the widget filter), then the tool calls it asked for,
// until the model answers without tools, a budget is exceeded, a cancel lands
// or a tool that waits for a person (ask_user, request_approval) suspends the
// turn. Every frame goes to the local subscribers at once and to Postgres in
// batches. How a turn suspends or ends is the lifecycle's (lifecycle.ts): it
// writes that in one transaction with the last frames, so a reader never sees
// an end without the frames before it. While tracing is on, a run is a span
// `chat.turn` and each model call a child span `chat.model`.
import { inSpan, SpanKind, tracing, type FunctionCallContext } from 'agent-platform/sdk';
import { capabilitiesOf, parserConfigOf } from './capabilities.ts';
import { WidgetStreamParser, type ParserOutput } from '../widgets/stream-parser.ts';
import { isAbort, ModelError, type ToolCall, type ToolSpec } from '../model/types.ts';
import { offlineAnswer } from '../offline/responder.ts';
import { turnsStore } from '../store/turns.ts';
import type { TurnChannel } from './channel.ts';
import type { Frame } from './frames.ts';
import type { TurnLifecycle } from './lifecycle.ts';
import { askUserResults, type ToolRecord, type TurnState } from './state.ts';
import type { Runtime } from './runtime.ts';

export interface TurnRef {
  tenantId: string;
  sessionId: string;
  turnId: string;
  userMessageId: number;
  /** The user's question (the offline responder searches with it). */
  question: string;
}

class Cancelled extends Error {}
class ToolInputError extends Error {}

const estimateTokens = (chars: number) => Math.ceil(chars / 4);

export class TurnRun {
  readonly ref: TurnRef;
  readonly state: TurnState;
  readonly channel: TurnChannel;
  readonly signal: AbortSignal;
  private readonly rt: Runtime;
  private readonly lifecycle: TurnLifecycle;
  /** The first step of a new turn was entered when the turn was created (no handshake needed). */
  private entered: boolean;
  /** The model call in progress: its streamed text is kept if a stop cuts it off. */
  private current: WidgetStreamParser | undefined;
  private tools: ToolSpec[] | undefined;

  constructor(rt: Runtime, lifecycle: TurnLifecycle, ref: TurnRef, state: TurnState, channel: TurnChannel, signal: AbortSignal) {
    this.rt = rt;
    this.lifecycle = lifecycle;
    this.ref = ref;
    this.state = state;
    this.channel = channel;
    this.signal = signal;
    this.entered = state.iterations === 0 && state.pending_calls.length === 0 && state.tools.length === 0;
  }

  /** Cut off mid-stream (a stop, a failure): keep what was streamed, nothing more. */
  keepCutOffText(): void {
    if (!this.current) return;
    this.absorb(this.current);
    this.current = undefined;
  }

  private publish(frame: Frame): void {
    if (!this.signal.aborted) this.channel.publish(frame);
  }

  /** What a function called by this turn knows of its caller (the call's id, when it is a tool call). */
  private context(call?: ToolCall): FunctionCallContext & { clientId: number } {
    return {
      // The chat's user, with the functions the tenant's admin granted the agent (core/functions/access.ts).
      tenantId: this.ref.tenantId, principal: this.state.principal, granted: this.state.agent.functions,
      withTenant: this.rt.core.withTenant, logger: this.rt.core.logger,
      executionContext: {
        type: 'chat_session', id: this.ref.sessionId, ...(call ? { turn: { id: this.ref.turnId, tool_call_id: call.id } } : {}),
      },
      clientId: this.state.client_id,
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

  run(): Promise<void> {
    if (!tracing()) return this.runTurn();
    return inSpan('chat.turn', { attributes: { 'tenant.id': this.ref.tenantId, 'chat.session_id': this.ref.sessionId, 'chat.turn_id': this.ref.turnId } }, () => this.runTurn());
  }

  private async runTurn(): Promise<void> {
    try {
      if (this.state.pending_calls.length > 0 && (await this.runTools()) === 'suspended') return;
      if (!this.rt.model) return await this.offline();
      const agent = this.state.agent;
      for (;;) {
        if (this.state.iterations >= agent.max_iterations) {
          return await this.lifecycle.finish(this, { status: 'failed', error: { code: 'ITERATION_BUDGET_EXCEEDED', reason: 'iteration_budget_exceeded', message: `The agent did not finish within ${agent.max_iterations} model calls` } });
        }
        const reply = await this.modelCall();
        if (this.state.tokens_used > agent.token_budget) {
          return await this.lifecycle.finish(this, { status: 'failed', error: { code: 'TOKEN_BUDGET_EXCEEDED', reason: 'token_budget_exceeded', message: `The agent used ${this.state.tokens_used} tokens, over its budget of ${agent.token_budget}` } });
        }
        if (reply.toolCalls.length === 0) return await this.lifecycle.finish(this, { status: 'completed' });
        this.state.pending_calls = [...reply.toolCalls];
        if ((await this.runTools()) === 'suspended') return;
      }
    } catch (err) {
      if (this.signal.aborted || isAbort(err) || err instanceof Cancelled) return this.lifecycle.finish(this, { status: 'failed', aborted: true });
      const code = err instanceof ModelError ? err.code : 'TURN_FAILED';
      const message = err instanceof ModelError ? err.message : 'The answer failed because of an internal error';
      if (!(err instanceof ModelError)) this.rt.core.logger.error({ err, turnId: this.ref.turnId }, 'chat: turn failed');
      return this.lifecycle.finish(this, { status: 'failed', error: { code, message, reason: 'error' } });
    }
  }

  private async toolSpecs(): Promise<ToolSpec[]> {
    this.tools ??= await this.rt.toolSpecs.of(this.ref.tenantId, this.state.agent.functions);
    return this.tools;
  }

  private relay(outputs: ParserOutput[], wrote: { yes: boolean }): void {
    for (const output of outputs) {
      if (output.kind === 'text') {
        if (!wrote.yes) {
          wrote.yes = true;
          this.publish({ type: 'activity', activity: 'writing' });
        }
        if (!this.signal.aborted) this.channel.publishText(output.text);
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
    const call = () => this.rt.model!.stream({
      model: this.state.model, messages: this.state.messages, tools,
      temperature: settings.temperature, top_p: settings.top_p, max_tokens: settings.max_output_tokens,
    }, { signal: this.signal, onText: (delta) => this.relay(parser.push(delta), wrote) });
    const reply = await (tracing() ? inSpan('chat.model', { kind: SpanKind.CLIENT, attributes: { 'gen_ai.request.model': String(this.state.model) } }, call) : call());
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

  /**
   * Runs the pending tool calls in order. A call of a suspending tool (ask_user,
   * request_approval) on a surface that can wait suspends the turn.
   */
  private async runTools(): Promise<'continue' | 'suspended'> {
    const capabilities = capabilitiesOf(this.state.keys);
    while (this.state.pending_calls.length > 0) {
      const call = this.state.pending_calls[0];
      if (!(await this.enterPhase('tool'))) throw new Cancelled();
      const name = call.function.name;
      const granted = this.state.agent.functions.includes(name);
      const tool = granted && capabilities.askUser ? this.lifecycle.suspendingTool(name) : undefined;
      const args = tool ? parseArgs(call) : undefined;
      let refused: string | undefined;
      if (tool && args && (tool.accepts?.(args) ?? true)) {
        const suspended = await this.lifecycle.suspend(this, call, tool, args);
        if (suspended === 'suspended') return 'suspended';
        // A cancel landed between the phase check and the suspension: end as it asks.
        if (suspended === 'cancelled') throw new Cancelled();
        refused = suspended.failed;
      }
      this.state.pending_calls.shift();
      const { result, record } = refused !== undefined ? await this.suspensionRefused(call, refused)
        : name === 'ask_user' && granted ? await this.askUserFallback(call) : await this.callTool(call, granted);
      this.state.tools.push(record);
      const content = JSON.stringify(result ?? null);
      this.state.messages.push({
        role: 'tool', tool_call_id: call.id,
        content: content.length > this.rt.options.maxToolResultChars ? `${content.slice(0, this.rt.options.maxToolResultChars)}… (truncated)` : content,
      });
    }
    return 'continue';
  }

  /** Without the ask_user key the surface cannot ask, so the agent gets an immediate answer that says so. */
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
      const result = await abortable(this.rt.core.functions.call(name, args, this.context(call)), this.signal);
      this.publish({ type: 'tool_status', status: 'completed', tool_call_id: call.id, name });
      await this.emit('chat.tool.completed', { ...base, duration_ms: Date.now() - started });
      return { result, record: { id: call.id, name, status: 'completed' } };
    } catch (err) {
      if (this.signal.aborted) throw err;
      // The agent sees why (a validation message, a 4xx of the target); internals stay in the log.
      const boom = err as { isBoom?: boolean; output?: { payload?: { message?: string } } };
      const message = err instanceof ToolInputError ? err.message : boom.isBoom ? (boom.output?.payload?.message ?? 'failed') : 'The function failed';
      if (!boom.isBoom && !(err instanceof ToolInputError)) this.rt.core.logger.warn({ err, function: name }, 'chat: tool failed');
      return this.toolFailed(call, message, started);
    }
  }

  /** The suspending tool refused the call (its arguments): the agent gets why, as from any failed tool. */
  private async suspensionRefused(call: ToolCall, message: string): Promise<{ result: unknown; record: ToolRecord }> {
    await this.emit('chat.tool.called', { session_id: this.ref.sessionId, turn_id: this.ref.turnId, tool_call_id: call.id, name: call.function.name });
    return this.toolFailed(call, message, Date.now());
  }

  private async toolFailed(call: ToolCall, message: string, started: number): Promise<{ result: unknown; record: ToolRecord }> {
    const name = call.function.name;
    this.publish({ type: 'tool_status', status: 'failed', tool_call_id: call.id, name, error: message });
    await this.emit('chat.tool.failed', { session_id: this.ref.sessionId, turn_id: this.ref.turnId, tool_call_id: call.id, name, error: message, duration_ms: Date.now() - started });
    return { result: { error: message }, record: { id: call.id, name, status: 'failed' } };
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
    await this.lifecycle.finish(this, { status: 'completed' });
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

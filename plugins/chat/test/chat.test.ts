// The SSE chat contract against a scripted model server: frames, capability
// keys (rules 1–3), widget lifting across chunk boundaries, persisted text vs
// streamed frames, tool calls through the function registry, budgets, events.
import t from 'tap';
import { textChunks, toolCallChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { ask, chatFixture, eventsOf, messagesOf, newSession, textOf } from './helpers.ts';

const WIDGET = '{"title":"Sales","rows":[[1,2],[3,4]]}';

t.test('a plain answer streams as SSE frames and is stored', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  const session = await newSession(tp, token);
  llm!.enqueue({ chunks: textChunks('Hello there, how can I help?'), usage: { prompt_tokens: 20, completion_tokens: 8 } });
  const answer = await ask(tp, token, session, 'Hi!');
  t.equal(answer.status, 200);
  t.match(String(answer.headers['content-type']), /^text\/event-stream/);
  const types = answer.frames.map((f) => f.type);
  t.same(types.slice(0, 3), ['turn', 'activity', 'activity']);
  t.same(answer.frames.filter((f) => f.type === 'activity').map((f) => f.activity), ['thinking', 'writing']);
  t.same(types.slice(-2), ['message', 'done']);
  t.equal(answer.frames.at(-1)!.status, 'completed');
  t.same(answer.frames.map((f) => f.seq), answer.frames.map((_, i) => i + 1), 'seq numbers the frames 1, 2, …');
  t.equal(textOf(answer.frames), 'Hello there, how can I help?');

  const sent = llm!.requests[0];
  t.equal(sent.body.stream, true);
  t.equal(sent.body.model, 'scripted-1');
  t.equal(sent.headers.authorization, 'Bearer sk-test-secret');
  t.equal(sent.body.messages.at(-1).content, 'Hi!');
  t.equal(sent.body.messages[0].role, 'system');

  const messages = await messagesOf(tp, token, session);
  t.same(messages.map((m) => m.role), ['user', 'assistant']);
  t.equal(messages[1].content, 'Hello there, how can I help?');
  t.equal(messages[1].tool_metadata.interrupted, false);
  t.equal(messages[1].id, answer.frames.find((f) => f.type === 'message')!.message_id);
  t.type(messages[1].id, 'number');

  // The second question carries the history.
  llm!.enqueue({ chunks: textChunks('Sure.') });
  await ask(tp, token, session, 'Again?');
  t.same(llm!.requests[1].body.messages.slice(1).map((m: any) => [m.role, m.content]),
    [['user', 'Hi!'], ['assistant', 'Hello there, how can I help?'], ['user', 'Again?']]);
});

t.test('capability keys: only the six, and the widget rules on the wire', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  const session = await newSession(tp, token);

  const unknown = await ask(tp, token, session, 'x', ['report_widget', 'chart_widget']);
  t.equal(unknown.status, 400, 'an unknown key is refused');
  t.equal(llm!.requests.length, 0, 'and nothing reached the model');
  t.same(await messagesOf(tp, token, session), [], 'and nothing was stored');

  const reply = `Here: <report_widget>${WIDGET}</report_widget> and <map_widget>{"lat":1}</map_widget> done.`;
  // Rule 1: no keys → plain text, every widget stripped (streamed and stored).
  llm!.enqueue({ chunks: textChunks(reply, 2) });
  const plain = await ask(tp, token, session, 'no keys');
  t.equal(textOf(plain.frames), 'Here:  and  done.');
  t.notOk(plain.frames.some((f) => f.type === 'widget'));
  t.match(llm!.requests.at(-1)!.body.messages[0].content, /plain text/);
  t.same((llm!.requests.at(-1)!.body.tools ?? []).map((tool: any) => tool.function.name), ['ask_user'],
    'the built-in assistant is offered only the granted functions that exist (ask_user answers with a fallback)');

  // Rule 2 + 3: report declared, inline by default; the undeclared map is stripped.
  llm!.enqueue({ chunks: textChunks(reply, 2) });
  const inline = await ask(tp, token, session, 'inline', ['report_widget']);
  t.equal(textOf(inline.frames), `Here: <report_widget>${WIDGET}</report_widget> and  done.`);
  t.notOk(inline.frames.some((f) => f.type === 'widget'));

  // widget_stream: lifted into its own frame, split across many 1-char chunks; stored inline.
  llm!.enqueue({ chunks: textChunks(reply, 1) });
  const lifted = await ask(tp, token, session, 'lifted', ['report_widget', 'widget_stream']);
  t.equal(textOf(lifted.frames), 'Here:  and  done.');
  const widgets = lifted.frames.filter((f) => f.type === 'widget');
  t.same(widgets.map((w) => [w.widget_type, w.data]), [['report', JSON.parse(WIDGET)]]);
  const messages = await messagesOf(tp, token, session);
  t.equal(messages.at(-1)!.content, `Here: <report_widget>${WIDGET}</report_widget> and  done.`, 'the stored message keeps the inline tag');
  t.same(messages.at(-1)!.tool_metadata.widgets, ['report']);
});

t.test('tool calls go through the function registry with the chat execution context', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  const seen: any[] = [];
  tp.platform.core.functions.register('lookup_order', {
    description: 'Look an order up', parameters: { properties: { order_id: { type: 'integer' } }, required: ['order_id'] },
    handler: async (args, context) => {
      seen.push({ args, type: context.executionContext, clientId: context.clientId, sub: context.principal.sub });
      return { order_id: args.order_id, status: 'shipped' };
    },
  });
  const agent = await tp.request({ method: 'POST', url: '/api/admin/agents', token, payload: { name: 'support', instructions: 'Be brief.', functions: ['lookup_order'], emit_iteration_events: true } });
  t.equal(agent.status, 201);
  const session = (await tp.request({ method: 'POST', url: '/api/sessions', token, payload: { agent_name: 'support' } })).body.id;
  llm!.enqueue(
    { chunks: [...textChunks('Checking. '), ...toolCallChunks('call_1', 'lookup_order', { order_id: 42 }, 0, 5)] },
    { chunks: textChunks('Order 42 has shipped.') },
  );
  const answer = await ask(tp, token, session, 'Where is order 42?');
  t.equal(answer.frames.at(-1)!.status, 'completed');
  const turnId = answer.frames[0].turn_id;
  t.same(seen, [{
    args: { order_id: 42 }, type: { type: 'chat_session', id: session, turn: { id: turnId, tool_call_id: 'call_1' } }, clientId: seen[0].clientId, sub: 'acme-admin',
  }], 'the context names the session, and the turn and tool call (request_approval resumes that call)');
  t.type(seen[0].clientId, 'number');
  t.same(answer.frames.filter((f) => f.type === 'tool_status').map((f) => [f.status, f.name, f.tool_call_id]),
    [['running', 'lookup_order', 'call_1'], ['completed', 'lookup_order', 'call_1']]);
  t.ok(answer.frames.some((f) => f.type === 'activity' && f.activity === 'looking_up'));
  t.equal(textOf(answer.frames), 'Checking. Order 42 has shipped.');
  const second = llm!.requests[1].body;
  t.same(second.tools.map((tool: any) => tool.function.name), ['lookup_order']);
  t.equal(second.messages.at(-2).tool_calls[0].function.arguments, '{"order_id":42}');
  t.same(second.messages.at(-1), { role: 'tool', tool_call_id: 'call_1', content: '{"order_id":42,"status":"shipped"}' });
  t.match(second.messages[0].content, /Be brief\./);

  // A failing tool: the agent sees why, the stream says failed, events say so.
  tp.platform.core.functions.register('always_fails', {
    description: 'fails', parameters: { properties: {} }, handler: async () => { throw new Error('boom secret internals'); },
  });
  await tp.request({ method: 'PATCH', url: '/api/admin/agents/support', token, payload: { functions: ['lookup_order', 'always_fails'] } });
  llm!.enqueue({ chunks: toolCallChunks('call_2', 'always_fails', {}) }, { chunks: textChunks('Sorry.') });
  const failed = await ask(tp, token, session, 'try');
  t.same(failed.frames.filter((f) => f.type === 'tool_status').map((f) => f.status), ['running', 'failed']);
  t.notMatch(JSON.stringify(failed.frames), /secret internals/);
  t.same(JSON.parse(llm!.requests.at(-1)!.body.messages.at(-1).content), { error: 'The function failed' });

  const types = (await eventsOf(tp, token)).map((e) => e.type);
  for (const type of ['chat.session.created', 'chat.tool.called', 'chat.tool.completed', 'chat.tool.failed', 'agent.loop.started', 'agent.loop.completed', 'agent.loop.iteration', 'definition.created', 'definition.updated']) {
    t.ok(types.includes(type), `${type} emitted`);
  }
  const updated = (await eventsOf(tp, token, 'definition.updated'))[0];
  t.same(updated.data.changed_fields, ['functions']);
  const iterations = await eventsOf(tp, token, 'agent.loop.iteration');
  t.equal(iterations.length, 4, 'one per model call when enabled');
});

t.test('budgets exceeded end the turn with agent.loop.failed', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  tp.platform.core.functions.register('noop', { description: 'noop', parameters: { properties: {} }, handler: async () => ({ ok: true }) });
  await tp.request({ method: 'POST', url: '/api/admin/agents', token, payload: { name: 'loopy', functions: ['noop'], max_iterations: 2 } });
  await tp.request({ method: 'POST', url: '/api/admin/agents', token, payload: { name: 'wordy', token_budget: 50 } });
  const loopy = (await tp.request({ method: 'POST', url: '/api/sessions', token, payload: { agent_name: 'loopy' } })).body.id;
  llm!.fallback = () => ({ chunks: toolCallChunks(`call_${Math.random()}`, 'noop', {}) });
  const looped = await ask(tp, token, loopy, 'go');
  t.equal(llm!.requests.length, 2, 'no model call past max_iterations');
  t.equal(looped.frames.at(-1)!.status, 'failed');
  t.equal(looped.frames.find((f) => f.type === 'error')!.code, 'ITERATION_BUDGET_EXCEEDED');

  const wordy = (await tp.request({ method: 'POST', url: '/api/sessions', token, payload: { agent_name: 'wordy' } })).body.id;
  llm!.fallback = () => ({ chunks: textChunks('x'.repeat(30)), usage: { prompt_tokens: 40, completion_tokens: 30 } });
  const spent = await ask(tp, token, wordy, 'go');
  t.equal(spent.frames.find((f) => f.type === 'error')!.code, 'TOKEN_BUDGET_EXCEEDED');
  const failed = await eventsOf(tp, token, 'agent.loop.failed');
  t.same(failed.map((e) => e.data.reason).sort(), ['iteration_budget_exceeded', 'token_budget_exceeded']);
});

t.test('model retries on 429/5xx with back-off, and a 4xx fails the turn', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  const session = await newSession(tp, token);
  llm!.enqueue({ status: 429, retryAfter: '0' }, { status: 503 }, { chunks: textChunks('Finally.') });
  const answer = await ask(tp, token, session, 'hello');
  t.equal(textOf(answer.frames), 'Finally.');
  t.equal(llm!.requests.length, 3);
  llm!.enqueue({ status: 400 });
  const failed = await ask(tp, token, session, 'hello');
  t.equal(failed.frames.at(-1)!.status, 'failed');
  t.equal(failed.frames.find((f) => f.type === 'error')!.code, 'MODEL_ERROR');
  t.notMatch(JSON.stringify(failed.frames), /sk-test-secret/);
});

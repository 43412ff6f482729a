// Agent escalation: request_approval suspends a chat turn
// like ask_user (tool_status awaiting_approval with the case id), resumes with
// the decision as the tool result, survives a restart, is released when the
// turn is cancelled, and without the ask_user capability key answers
// {status: "pending", case_id} at once.
import t from 'tap';
import { textChunks, toolCallChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { startTestPlatform } from 'agent-platform/sdk/testing';
import { ask, chatFixture, messagesOf, parseSse, textOf, type Frame } from '../../chat/test/helpers.ts';
import { caseOf, decide, MANIFEST, person, until } from './helpers.ts';
import type { TestPlatform } from 'agent-platform/sdk/testing';

const REQUEST = { title: 'Restart the production database', payload: { host: 'db-1' }, approvers: { users: ['ann'] } };

async function opsSession(tp: TestPlatform, token: string): Promise<string> {
  const agent = await tp.request({ method: 'POST', url: '/api/admin/agents', token, payload: { name: 'ops', instructions: 'Ask before risky actions.', functions: ['request_approval'] } });
  if (agent.status !== 201) throw new Error(JSON.stringify(agent.body));
  return (await tp.request({ method: 'POST', url: '/api/sessions', token, payload: { agent_name: 'ops' } })).body.id;
}

/** Follows the session's turn after `after` until its done frame. */
function followed(tp: TestPlatform, token: string, session: string, after: number): Promise<Frame[]> {
  return until(async () => {
    const r = await tp.request({ url: `/api/chat/${session}/stream?after=${after}`, token });
    const frames = parseSse(String(r.body));
    return frames.some((f) => f.type === 'done') ? frames : undefined;
  }, 'the resumed turn to finish');
}

t.test('request_approval suspends the turn; the decision resumes it as the tool result', async (t) => {
  const { tp, llm, token } = await chatFixture(t, { manifest: MANIFEST });
  const ann = await person(tp, 'acme', 'ann');
  const session = await opsSession(tp, token);
  llm!.enqueue({ chunks: [...textChunks('Asking. '), ...toolCallChunks('call_a', 'request_approval', REQUEST)] }, { chunks: textChunks('Approved: restarting.') });
  const first = await ask(tp, token, session, 'Restart db-1', ['ask_user']);
  const waiting = first.frames.find((f) => f.type === 'tool_status')!;
  t.match(waiting, { status: 'awaiting_approval', name: 'request_approval', tool_call_id: 'call_a' });
  t.match(waiting.case_id, /^[0-9a-f-]{36}$/);
  t.same(first.frames.at(-1), { seq: first.frames.length, type: 'done', status: 'awaiting_approval' });
  const opened = await caseOf(tp, token, waiting.case_id);
  t.match(opened, {
    title: REQUEST.title, payload: REQUEST.payload, status: 'pending', requested_by: 'acme-admin',
    source: { type: 'agent', session_id: session, turn_id: first.frames[0].turn_id, tool_call_id: 'call_a' },
  });
  const busy = await ask(tp, token, session, 'anything else?', ['ask_user']);
  t.equal(busy.status, 409, 'the session waits');
  t.equal(llm!.requests.length, 1);

  t.equal((await decide(tp, ann, opened.id, 'approve', 'go')).status, 200);
  const frames = await followed(tp, token, session, first.frames.at(-1)!.seq);
  t.same([frames[0].type, frames[0].resumed], ['turn', true]);
  t.match(frames[1], { type: 'tool_status', status: 'completed', name: 'request_approval', tool_call_id: 'call_a', case_id: opened.id, decision: 'approved' });
  t.equal(textOf(frames), 'Approved: restarting.');
  t.equal(frames.at(-1)!.status, 'completed');
  const result = JSON.parse(llm!.requests[1].body.messages.at(-1).content);
  t.match(result, { case_id: opened.id, status: 'approved', timed_out: false, decisions: [{ by: 'ann', decision: 'approve', comment: 'go' }] });
  const messages = await messagesOf(tp, token, session);
  t.same(messages.at(-1)!.tool_metadata.tool_calls, [{ id: 'call_a', name: 'request_approval', status: 'completed' }]);
});

t.test('without the ask_user key request_approval answers {status: pending, case_id} at once', async (t) => {
  const { tp, llm, token } = await chatFixture(t, { manifest: MANIFEST });
  const session = await opsSession(tp, token);
  llm!.enqueue({ chunks: toolCallChunks('call_b', 'request_approval', REQUEST) }, { chunks: textChunks('I asked for approval; it is pending.') });
  const answer = await ask(tp, token, session, 'Restart db-1');
  t.equal(answer.frames.at(-1)!.status, 'completed');
  t.notOk(answer.frames.some((f) => f.status === 'awaiting_approval'));
  const result = JSON.parse(llm!.requests[1].body.messages.at(-1).content);
  t.equal(result.status, 'pending');
  const opened = await caseOf(tp, token, result.case_id);
  t.match(opened, { status: 'pending', source: { type: 'agent', session_id: session, turn_id: answer.frames[0].turn_id, tool_call_id: 'call_b' } });
});

t.test('cancelling a turn that awaits approval cancels its case', async (t) => {
  const { tp, llm, token } = await chatFixture(t, { manifest: MANIFEST });
  await person(tp, 'acme', 'ann');
  const session = await opsSession(tp, token);
  llm!.enqueue({ chunks: toolCallChunks('call_c', 'request_approval', REQUEST) });
  const first = await ask(tp, token, session, 'Restart db-1', ['ask_user']);
  const caseId = first.frames.find((f) => f.type === 'tool_status')!.case_id;
  const cancelled = await tp.request({ method: 'POST', url: `/api/chat/${session}/cancel`, token });
  t.equal(cancelled.status, 200);
  t.equal((await caseOf(tp, token, caseId)).status, 'cancelled');
});

t.test('a turn awaiting approval survives a restart: decided after it, it resumes in the second instance', async (t) => {
  const first = await chatFixture(t, { manifest: MANIFEST });
  const ann = await person(first.tp, 'acme', 'ann');
  const session = await opsSession(first.tp, first.token);
  first.llm!.enqueue({ chunks: toolCallChunks('call_d', 'request_approval', REQUEST) }, { chunks: textChunks('Resumed elsewhere.') });
  const asked = await ask(first.tp, first.token, session, 'Restart db-1', ['ask_user']);
  const caseId = asked.frames.find((f) => f.type === 'tool_status')!.case_id;
  await first.tp.stop();

  const { ADMIN_TOKEN, PLATFORM_MASTER_KEY, SERVICE_JWT_SECRET } = first.tp.env;
  const second = await startTestPlatform(t, {
    databaseUrl: first.tp.databaseUrl,
    env: { PLATFORM_MANIFEST: MANIFEST, LLM_BASE_URL: first.llm!.baseUrl, LLM_MODEL: 'scripted-1', ADMIN_TOKEN, PLATFORM_MASTER_KEY, SERVICE_JWT_SECRET },
  });
  await second.platform.start();
  t.equal((await decide(second, ann, caseId, 'reject', 'not now')).status, 200);
  const frames = await followed(second, first.token, session, asked.frames.at(-1)!.seq);
  t.equal(textOf(frames), 'Resumed elsewhere.');
  t.equal(frames.at(-1)!.status, 'completed');
  t.match(JSON.parse(first.llm!.requests[1].body.messages.at(-1).content), { status: 'rejected', decisions: [{ by: 'ann', comment: 'not now' }] });
});

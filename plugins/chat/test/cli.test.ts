// `platform chat` against a running server (HTTP, a user token): one question
// with an ask_user answered on stdin, the answer printed as it streams.
import t from 'tap';
import { spawn } from 'node:child_process';
import { ROOT_DIR } from '../../../core/paths.ts';
import { textChunks, toolCallChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { runCli } from 'agent-platform/sdk/testing';
import { chatFixture, messagesOf, until, MANIFEST } from './helpers.ts';

const cli = (args: string[], env: Record<string, string>, stdin: string) => runCli(args, { env: { PLATFORM_MANIFEST: MANIFEST, ...env }, stdin });

t.test('platform chat asks, answers ask_user from stdin and prints the streamed answer', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  llm!.enqueue({ chunks: toolCallChunks('q1', 'ask_user', { question: 'Which year?' }) }, { chunks: textChunks('Sales in 2025 grew.') });
  const result = await cli(['chat', '--url', tp.url(''), '--message', 'How were sales?', '--json'], { PLATFORM_TOKEN: token }, '2025\n');
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /Sales in 2025 grew\./);
  t.match(result.stderr, /\[thinking…\]/);
  t.match(result.stderr, /\? Which year\?/);
  const summary = JSON.parse(result.stdout.slice(result.stdout.indexOf('{')));
  t.equal(summary.status, 'completed');
  const messages = await messagesOf(tp, token, summary.session_id);
  t.equal(messages.at(-1)!.id, summary.message_id);
  t.equal(JSON.parse(llm!.requests[1].body.messages.at(-1).content).answer, '2025');

  const noToken = await cli(['chat', '--url', tp.url(''), '--message', 'x'], { PLATFORM_TOKEN: '' }, '');
  t.equal(noToken.code, 1);
  t.match(noToken.stderr, /token is required/);
});

t.test('interactive platform chat: questions from the prompt, Ctrl-C stops the answer, /quit leaves', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  llm!.enqueue({ chunks: textChunks('First answer.') }, { chunks: textChunks('Words keep coming. '.repeat(200), 4), delayMs: 15, hold: true }, { chunks: textChunks('After the stop.') });
  const child = spawn(process.execPath, ['core/cli/bin.ts', 'chat', '--url', tp.url(''), '--json'], {
    cwd: ROOT_DIR, env: { ...process.env, LOG_LEVEL: 'silent', PLATFORM_MANIFEST: MANIFEST, PLATFORM_TOKEN: token },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const closed = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const waitFor = (check: () => boolean, what: string) => until(async () => check(), what, 30_000);

  child.stdin.write('Hello?\n');
  await waitFor(() => stdout.includes('First answer.'), 'the first answer');
  child.stdin.write('Tell me a long story\n');
  await waitFor(() => llm!.requests.length === 2 && llm!.requests[1].written > 5, 'the long answer to stream');
  child.kill('SIGINT');
  await llm!.requests[1].finished;
  t.equal(llm!.requests[1].closedByClient, true, 'Ctrl-C cancelled the turn: the model stream was closed');
  child.stdin.write('And now?\n');
  await waitFor(() => stdout.includes('After the stop.'), 'the next answer after the stop');
  child.stdin.write('/quit\n');
  t.equal(await closed, 0, stderr);
  const summary = JSON.parse(stdout.slice(stdout.lastIndexOf('{')));
  t.equal(summary.turns, 3);
  const messages = await messagesOf(tp, token, summary.session_id);
  t.same(messages.filter((m) => m.role === 'assistant').map((m) => m.tool_metadata.interrupted), [false, true, false]);
  t.match(stderr, /\[writing the answer…\]/);
});

// `platform chat`: a terminal chat with a running server. The CLI runs no
// workers and holds no turn, so it talks to the server over HTTP with a user
// token (PLATFORM_TOKEN or --token; PLATFORM_URL or --url), exactly as a chat
// surface does: the answer streams as SSE with activity indicators on stderr,
// ask_user questions are answered at the prompt, Ctrl-C stops the answer.
import { createInterface, type Interface } from 'node:readline';
import { defineCli, serverFetch, serverUrl, UsageError } from 'agent-platform/sdk/cli';
import { SseReader } from './model/sse-lines.ts';
import { CAPABILITY_KEYS } from './turn/capabilities.ts';

interface Connection {
  url: string;
  token: string;
  tenant: string | undefined;
  client: string | undefined;
}

const ACTIVITY: Record<string, string> = { thinking: 'thinking…', looking_up: 'looking up data…', writing: 'writing the answer…' };

async function call(conn: Connection, method: string, path: string, body?: unknown): Promise<Response> {
  const query = conn.client ? `${path.includes('?') ? '&' : '?'}selected_client=${encodeURIComponent(conn.client)}` : '';
  const headers: Record<string, string> = { authorization: `Bearer ${conn.token}` };
  if (conn.tenant) headers['x-tenant-id'] = conn.tenant;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await serverFetch(`${conn.url}${path}${query}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) {
    const text = await response.text();
    let message = text;
    try {
      message = JSON.parse(text).message ?? text;
    } catch { /* not JSON */ }
    throw new UsageError(`${method} ${path}: ${response.status} ${message}`);
  }
  return response;
}

interface StreamEnd {
  status: string;
  messageId: number | null;
  question?: { tool_call_id: string; question: string; options?: string[] };
}

/** Prints a turn's stream: text to stdout, activity and tool status to stderr. */
async function render(response: Response, out: NodeJS.WritableStream, err: NodeJS.WritableStream, current: { turnId?: string }): Promise<StreamEnd> {
  const reader = new SseReader();
  const end: StreamEnd = { status: 'failed', messageId: null };
  const decoder = new TextDecoder();
  const handle = (data: string) => {
    const frame = JSON.parse(data);
    switch (frame.type) {
      case 'turn': current.turnId = frame.turn_id; break;
      case 'activity': err.write(`\x1b[2m[${ACTIVITY[frame.activity] ?? frame.activity}]\x1b[0m\n`); break;
      case 'text': out.write(frame.delta); break;
      case 'widget': out.write(`\n[${frame.widget_type} widget] ${JSON.stringify(frame.data)}\n`); break;
      case 'tool_status':
        if (frame.status === 'awaiting_input') end.question = { tool_call_id: frame.tool_call_id, question: frame.question, options: frame.options };
        else err.write(`\x1b[2m[${frame.name}: ${frame.status}]\x1b[0m\n`);
        break;
      case 'citations':
        out.write(`\n${frame.citations.map((c: Record<string, unknown>) => `[${c.ref}] ${c.doc_name}${c.page ? ` p. ${c.page}` : ''} (${c.match_type ?? 'unverified'})`).join('\n')}\n`);
        break;
      case 'error': err.write(`error: ${frame.message} (${frame.code})\n`); break;
      case 'message': end.messageId = frame.message_id; break;
      case 'done': end.status = frame.status; break;
    }
  };
  for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
    for (const event of reader.push(decoder.decode(piece, { stream: true }))) handle(event.data);
  }
  for (const event of reader.end()) handle(event.data);
  out.write('\n');
  return end;
}

/**
 * Lines of stdin as they come, buffered: piped input may arrive (and end)
 * before a question is asked, and readline drops lines nobody listens for.
 */
class Lines {
  private readonly queue: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  private closed = false;
  readonly rl: Interface;

  constructor() {
    this.rl = createInterface({ input: process.stdin, terminal: false });
    this.rl.on('line', (line) => {
      if (this.waiting) {
        const resolve = this.waiting;
        this.waiting = undefined;
        resolve(line);
      } else {
        this.queue.push(line);
      }
    });
    this.rl.on('close', () => {
      this.closed = true;
      this.waiting?.(undefined);
      this.waiting = undefined;
    });
  }

  /** The next line after writing a prompt to stderr; undefined once input has ended. */
  ask(prompt: string): Promise<string | undefined> {
    process.stderr.write(prompt);
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift());
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => (this.waiting = resolve));
  }
}

export const cli = defineCli(
  // Its one command is an HTTP client of the server: no services of its own.
  () => undefined,
  (command) => [
  command({
    name: 'chat',
    offline: true,
    description: 'Chat with the platform in the terminal (talks to a running server: PLATFORM_URL, PLATFORM_TOKEN)',
    options: {
      url: { type: 'string', description: 'server address (default PLATFORM_URL, else the server running on this data directory, else http://127.0.0.1:$PORT)' },
      token: { type: 'string', description: 'a user token (default PLATFORM_TOKEN)' },
      tenant: { type: 'string', description: 'tenant alias (when the token has several)' },
      client: { type: 'string', description: 'client key or id (selected_client)' },
      session: { type: 'string', description: 'continue this session (default: a new one)' },
      capabilities: { type: 'string', description: `comma-separated capability keys (${CAPABILITY_KEYS.join(', ')}); default ask_user` },
      message: { type: 'string', description: 'ask one question, print the answer and exit' },
    },
    async run(_services, { options }) {
      const token = String(options.token ?? process.env.PLATFORM_TOKEN ?? '');
      if (!token) throw new UsageError('chat: a user token is required: give --token or set PLATFORM_TOKEN (platform tokens issue --sub <user>)');
      const conn: Connection = {
        url: serverUrl(options),
        token, tenant: options.tenant, client: options.client,
      };
      const keys = String(options.capabilities ?? 'ask_user').split(',').map((k) => k.trim()).filter(Boolean);
      const unknown = keys.filter((k) => !(CAPABILITY_KEYS as readonly string[]).includes(k));
      if (unknown.length > 0) throw new UsageError(`chat: unknown capability keys: ${unknown.join(', ')}`);
      const sessionId = options.session
        ?? (await (await call(conn, 'POST', '/api/sessions', {})).json() as { id: string }).id;
      const lines = new Lines();
      let streaming = false;
      const current: { turnId?: string } = {};
      const onInterrupt = () => {
        // Names the turn being shown, so a late Ctrl-C never stops the next question.
        const turn = current.turnId ? `?turn_id=${current.turnId}` : '';
        if (streaming) void call(conn, 'POST', `/api/chat/${sessionId}/cancel${turn}`).catch(() => {});
        else lines.rl.close();
      };
      process.on('SIGINT', onInterrupt);
      const turn = async (response: Response): Promise<StreamEnd> => {
        streaming = true;
        try {
          let end = await render(response, process.stdout, process.stderr, current);
          // ask_user: the answer is read at the prompt and the turn goes on.
          while (end.question) {
            const options = end.question.options?.length ? ` (${end.question.options.join(' / ')})` : '';
            streaming = false;
            const answer = await lines.ask(`? ${end.question.question}${options}\n> `);
            if (answer === undefined) break; // input ended: the question stays open (answer later, or cancel)
            streaming = true;
            end = await render(await call(conn, 'POST', `/api/chat/${sessionId}/human-input`, { tool_call_id: end.question.tool_call_id, answer }), process.stdout, process.stderr, current);
          }
          return end;
        } finally {
          streaming = false;
        }
      };
      try {
        if (options.message !== undefined) {
          const end = await turn(await call(conn, 'POST', `/api/chat/${sessionId}`, { content: String(options.message), capability_keys: keys }));
          return { session_id: sessionId, status: end.status, message_id: end.messageId };
        }
        process.stderr.write(`session ${sessionId} — type a question, /quit to leave, Ctrl-C stops an answer\n`);
        let turns = 0;
        for (;;) {
          const line = (await lines.ask('> '))?.trim();
          if (line === undefined || line === '/quit' || line === '/exit') break;
          if (!line) continue;
          await turn(await call(conn, 'POST', `/api/chat/${sessionId}`, { content: line, capability_keys: keys }));
          turns++;
        }
        return { session_id: sessionId, turns };
      } finally {
        process.off('SIGINT', onInterrupt);
        lines.rl.close();
      }
    },
  }),
]);

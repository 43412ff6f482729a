// Shared by the chat tests: a platform (tenancy, workflows, events, chat) on a
// fresh database with a scripted model server on loopback, a tenant with an
// admin, its default client (renamed "web"), and helpers to read SSE frames (through inject for whole
// turns, through a real HTTP connection for turns the test interrupts).
import { startTestPlatform, tenantWithAdmin, until, type Tap, type TestPlatform, type TestPlatformOptions } from 'agent-platform/sdk/testing';
import { ScriptedLlm } from '../../../test/fixtures/chat/scripted-llm.ts';

export const MANIFEST = 'test/fixtures/manifests/chat.yaml';

export interface Frame {
  seq: number;
  type: string;
  [key: string]: any;
}

export interface ChatFixture {
  tp: TestPlatform;
  llm: ScriptedLlm | undefined;
  token: string;
  tenant: string;
  clientId: number;
  clientKey: string;
}

export async function chatFixture(t: Tap, options: TestPlatformOptions & { llm?: boolean; alias?: string; manifest?: string } = {}): Promise<ChatFixture> {
  const { llm: withLlm = true, alias = 'acme', manifest = MANIFEST, ...platformOptions } = options;
  let llm: ScriptedLlm | undefined;
  if (withLlm) {
    llm = await new ScriptedLlm().start();
    t.teardown(() => llm!.stop());
  }
  const tp = await startTestPlatform(t, {
    ...platformOptions,
    env: { PLATFORM_MANIFEST: manifest, LLM_BASE_URL: llm?.baseUrl ?? '', LLM_API_KEY: llm ? 'sk-test-secret' : '', LLM_MODEL: 'scripted-1', ...platformOptions.env },
  });
  await tp.platform.start();
  const { token } = await tenantWithAdmin(tp, alias);
  // Every tenant is created with a client ("default"): the one a session acts for unless it names another.
  const [created] = (await tp.request({ url: '/api/admin/clients', token })).body.items;
  const client = await tp.request({ method: 'PATCH', url: `/api/admin/clients/${created.id}`, token, payload: { name: 'web' } });
  if (client.status !== 200) throw new Error(`client: ${JSON.stringify(client.body)}`);
  return { tp, llm, token, tenant: alias, clientId: client.body.id, clientKey: client.body.client_key };
}

/** Another user of the tenant (no admin role) and their token. */
export async function member(tp: TestPlatform, tenant: string, sub: string): Promise<string> {
  const user = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub, display_name: sub, organizations: [tenant], roles: [] } });
  if (user.status !== 201) throw new Error(`user ${sub}: ${JSON.stringify(user.body)}`);
  const token = await tp.request({ method: 'POST', url: `/api/admin/users/${sub}/tokens`, token: tp.adminToken });
  return token.body.access_token;
}

export async function newSession(tp: TestPlatform, token: string, query = ''): Promise<string> {
  const created = await tp.request({ method: 'POST', url: `/api/sessions${query}`, token, payload: {} });
  if (created.status !== 201) throw new Error(`session: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id;
}

export function parseSse(text: string): Frame[] {
  return text.split('\n\n').filter((block) => block.includes('data: '))
    .map((block) => JSON.parse(block.split('\n').find((line) => line.startsWith('data: '))!.slice(6)));
}

/** Asks through inject: the whole answer (the stream ends with the turn). */
export async function ask(tp: TestPlatform, token: string, sessionId: string, content: string, capability_keys?: string[], query = '') {
  const response = await tp.request({ method: 'POST', url: `/api/chat/${sessionId}${query}`, token, payload: { content, ...(capability_keys ? { capability_keys } : {}) } });
  return { status: response.status, headers: response.headers, body: response.body, frames: response.status === 200 ? parseSse(String(response.body)) : [] };
}

export const textOf = (frames: Frame[]) => frames.filter((f) => f.type === 'text').map((f) => f.delta).join('');

export async function messagesOf(tp: TestPlatform, token: string, sessionId: string) {
  const listed = await tp.request({ url: `/api/sessions/${sessionId}/messages`, token });
  if (listed.status !== 200) throw new Error(`messages: ${JSON.stringify(listed.body)}`);
  return listed.body.items as { id: number; role: string; content: string; tool_metadata: Record<string, any> }[];
}

/** A real HTTP SSE connection: frames as they arrive, and a way to drop it. */
export function openStream(tp: TestPlatform, token: string, path: string, init: { method?: string; body?: unknown } = {}) {
  const controller = new AbortController();
  const frames: Frame[] = [];
  let ended = false;
  const done = (async () => {
    const response = await fetch(tp.url(path), {
      method: init.method ?? 'POST', signal: controller.signal,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (response.status !== 200) throw new Error(`stream ${path}: ${response.status} ${await response.text()}`);
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(piece, { stream: true });
        let at: number;
        while ((at = buffer.indexOf('\n\n')) !== -1) {
          frames.push(...parseSse(buffer.slice(0, at + 2)));
          buffer = buffer.slice(at + 2);
        }
      }
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    }
    ended = true;
  })();
  done.catch(() => {});
  return {
    frames,
    done,
    get ended() {
      return ended;
    },
    drop: () => controller.abort(),
    waitFor: (predicate: (frames: Frame[]) => boolean, what: string, ms = 15_000) => until(async () => predicate(frames), what, ms),
  };
}

/** Events of the tenant's stream, oldest first (through the events API). */
export async function eventsOf(tp: TestPlatform, token: string, type?: string) {
  const listed = await tp.request({ url: `/api/admin/triggers/events/recent?limit=500${type ? `&type=${type}` : ''}`, token });
  if (listed.status !== 200) throw new Error(`events: ${JSON.stringify(listed.body)}`);
  return (listed.body.items as { type: string; data: Record<string, any> }[]).filter((e) => !type || e.type === type);
}

export { until };

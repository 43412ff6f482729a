// `platform clients embed smoke`: the whole embed-token flow against a
// running server, each step recorded pass/fail (a failed step stops the flow;
// cleanup always runs): a temporary client (or an existing one), its
// manifest read from the origin, its embed credential (provisioned, or reused
// with EMBED_CLIENT_SECRET: never rotated behind a host's back), the
// client_credentials token, an embed token, a session, a question and its
// streamed answer, then cleanup (the session; a temporary client's
// credential and the client itself).
import { randomBytes } from 'node:crypto';
import { call, type Answer } from './http.ts';

export interface SmokeInput {
  base: string;
  /** The operator's token (admin of the tenant, or the super-admin). */
  token: string;
  tenant: string;
  origin: string;
  /** An existing client; absent: a temporary one. */
  clientId?: number;
  question: string;
}

export interface SmokeStep {
  name: string;
  ok: boolean;
  detail: string;
}

class StepFailed extends Error {}

const describe = (answer: Answer) =>
  `HTTP ${answer.status}${typeof answer.body === 'object' && answer.body?.message ? ` ${answer.body.message}` : ''}`;

/** The text of an SSE chat answer and its final status. */
function answerOf(stream: string): { text: string; status: string | undefined } {
  let text = '';
  let status: string | undefined;
  for (const line of stream.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const frame = JSON.parse(line.slice(6)) as { type: string; delta?: string; status?: string };
    if (frame.type === 'text') text += frame.delta ?? '';
    if (frame.type === 'done') status = frame.status;
  }
  return { text, status };
}

export async function runSmoke(input: SmokeInput): Promise<SmokeStep[]> {
  const steps: SmokeStep[] = [];
  const admin = { token: input.token, tenant: input.tenant };
  async function step<T>(name: string, work: () => Promise<{ value: T; detail: string }>): Promise<T> {
    try {
      const { value, detail } = await work();
      steps.push({ name, ok: true, detail });
      return value;
    } catch (err) {
      steps.push({ name, ok: false, detail: (err as Error).message });
      throw new StepFailed();
    }
  }
  const expect = (answer: Answer, status: number) => {
    if (answer.status !== status) throw new Error(describe(answer));
    return answer.body;
  };

  let clientId = input.clientId;
  let temporary = false;
  let provisioned = false;
  let sessionPath: string | undefined;
  let embedToken: string | undefined;
  try {
    const client = await step('client', async () => {
      if (clientId === undefined) {
        const created = expect(await call(input.base, 'POST', '/api/admin/clients', { ...admin, body: { name: `embed-smoke-${randomBytes(4).toString('hex')}` } }), 201);
        clientId = created.id as number;
        temporary = true;
        expect(await call(input.base, 'PUT', `/api/admin/clients/${clientId}/embed`, { ...admin, body: { enabled: true, allowed_origins: [input.origin] } }), 200);
        return { value: created as { id: number; client_key: string }, detail: `temporary client ${created.client_key} (id ${clientId})` };
      }
      const config = expect(await call(input.base, 'GET', `/api/admin/clients/${clientId}/embed`, admin), 200);
      return { value: { id: clientId, client_key: config.client_key as string }, detail: `client ${config.client_key} (id ${clientId})` };
    });
    await step('manifest', async () => {
      const answer = await call(input.base, 'GET', `/api/embed/manifest/${encodeURIComponent(client.client_key)}`, { headers: { origin: input.origin } });
      const manifest = expect(answer, 200);
      if (answer.headers.get('access-control-allow-origin') !== new URL(input.origin).origin) throw new Error('no Access-Control-Allow-Origin for the origin');
      return { value: manifest, detail: `mode ${manifest.default_mode}, auth modes ${manifest.auth_modes.join(', ')}` };
    });
    const credential = await step('credentials', async () => {
      const config = expect(await call(input.base, 'GET', `/api/admin/clients/${clientId}/embed`, admin), 200);
      if (config.service_account_client_id) {
        const secret = process.env.EMBED_CLIENT_SECRET;
        if (!secret) throw new Error('the client has an embed credential: set EMBED_CLIENT_SECRET to reuse it (smoke never rotates it)');
        return { value: { id: config.service_account_client_id as string, secret }, detail: `reused ${config.service_account_client_id}` };
      }
      const made = expect(await call(input.base, 'POST', `/api/admin/clients/${clientId}/embed-credentials`, admin), 201);
      provisioned = true;
      return { value: { id: made.service_account_client_id as string, secret: made.client_secret as string }, detail: `provisioned ${made.service_account_client_id}` };
    });
    const backendToken = await step('client credentials', async () => {
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: credential.id, client_secret: credential.secret });
      const body = expect(await call(input.base, 'POST', '/oauth/token', { body: form }), 200);
      return { value: body.access_token as string, detail: `token for ${credential.id}` };
    });
    embedToken = await step('mint', async () => {
      const body = expect(await call(input.base, 'POST', '/api/embed/tokens', {
        token: backendToken, headers: { origin: input.origin },
        body: { client_key: client.client_key, external_user_id: 'embed-smoke-user', display_name: 'Embed smoke test', expires_in: 300 },
      }), 200);
      return { value: body.access_token as string, detail: `embed token, expires in ${body.expires_in} s` };
    });
    const page = { token: embedToken, headers: { origin: input.origin, 'x-platform-embed': '1' } };
    const query = `selected_client=${encodeURIComponent(client.client_key)}`;
    const session = await step('session', async () => {
      const answer = await call(input.base, 'POST', `/api/sessions?${query}`, { ...page, body: { title: 'Embed smoke test' } });
      const body = expect(answer, 201);
      if (answer.headers.get('access-control-allow-origin') !== new URL(input.origin).origin) throw new Error('no Access-Control-Allow-Origin for the origin');
      sessionPath = `/api/sessions/${body.id}?${query}`;
      return { value: body as { id: string }, detail: `session ${body.id}` };
    });
    await step('ask', async () => {
      const answer = await call(input.base, 'POST', `/api/chat/${session.id}?${query}`, { ...page, body: { content: input.question } });
      expect(answer, 200);
      const { text, status } = answerOf(String(answer.body));
      if (status !== 'completed') throw new Error(`the answer ended ${status ?? 'without a done frame'}`);
      return { value: text, detail: `${text.length} characters: ${text.slice(0, 80).replace(/\s+/g, ' ')}` };
    });
  } catch (err) {
    if (!(err instanceof StepFailed)) throw err;
  } finally {
    await cleanup();
  }
  return steps;

  async function cleanup(): Promise<void> {
    const done: string[] = [];
    const problems: string[] = [];
    const attempt = async (what: string, work: () => Promise<Answer>, ok: number[]) => {
      const answer = await work().catch((err: Error) => ({ status: 0, body: { message: err.message } }) as Answer);
      (ok.includes(answer.status) ? done : problems).push(ok.includes(answer.status) ? what : `${what}: ${describe(answer)}`);
    };
    if (sessionPath && embedToken) {
      await attempt('session deleted', () => call(input.base, 'DELETE', sessionPath!, { token: embedToken, headers: { origin: input.origin, 'x-platform-embed': '1' } }), [200, 204]);
    }
    if (clientId !== undefined && (temporary || provisioned)) {
      await attempt('credential revoked', () => call(input.base, 'DELETE', `/api/admin/clients/${clientId}/embed-credentials`, admin), [200]);
    }
    if (temporary) await attempt('temporary client deleted', () => call(input.base, 'DELETE', `/api/admin/clients/${clientId}`, admin), [200, 204]);
    if (done.length || problems.length) steps.push({ name: 'cleanup', ok: problems.length === 0, detail: [...done, ...problems].join('; ') });
  }
}

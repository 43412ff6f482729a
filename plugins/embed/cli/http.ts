// The HTTP client the embed CLI commands use: every one of them talks to a
// running server (--url, default PLATFORM_URL or http://127.0.0.1:$PORT), as
// the operator (--token, default PLATFORM_TOKEN or ADMIN_TOKEN) unless it
// acts as a host backend or a page.
import { UsageError } from 'agent-platform/sdk/cli';

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export interface Connection {
  url?: string;
  token?: string;
  tenant?: string;
}

export const connectionOptions = {
  url: { type: 'string', description: 'server base URL (default PLATFORM_URL or http://127.0.0.1:$PORT)' },
  token: { type: 'string', description: 'bearer token of an admin or the super-admin (default PLATFORM_TOKEN or ADMIN_TOKEN)' },
  tenant: { type: 'string', description: 'tenant alias (X-Tenant-ID)' },
} as const;

export const baseUrlOf = (options: { url?: string }, env = process.env) =>
  (options.url ?? env.PLATFORM_URL ?? `http://127.0.0.1:${env.PORT ?? 8080}`).replace(/\/+$/, '');

export function operatorToken(options: { token?: string }, env = process.env): string {
  const token = options.token ?? env.PLATFORM_TOKEN ?? env.ADMIN_TOKEN;
  if (!token) throw new UsageError('a token is needed: --token, PLATFORM_TOKEN or ADMIN_TOKEN');
  return token;
}

/** One request; `token` null sends none. JSON bodies are sent as JSON, URLSearchParams as a form. */
export async function call(base: string, method: string, path: string, init: { token?: string | null; tenant?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.tenant) headers['x-tenant-id'] = init.tenant;
  let body: BodyInit | undefined;
  if (init.body instanceof URLSearchParams || init.body instanceof FormData) body = init.body;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${base}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** The body of a 2xx answer, else an error naming the status and the server's message. */
export function expectOk(answer: Answer, what: string): any {
  if (answer.status >= 200 && answer.status < 300) return answer.body;
  const message = typeof answer.body === 'object' && answer.body ? answer.body.message : String(answer.body).slice(0, 200);
  throw new UsageError(`${what}: HTTP ${answer.status} ${message ?? ''}`.trim());
}

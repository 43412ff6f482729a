// The HTTP client the embed CLI commands use: every one of them talks to a
// running server, found as every command that calls it finds it (--url,
// PLATFORM_URL, the server running on the data directory, or
// http://127.0.0.1:$PORT), as the operator (--token, PLATFORM_TOKEN or
// ADMIN_TOKEN) unless it acts as a host backend or a page.
import { serverFetch, serverOptions, serverToken, serverUrl, UsageError } from 'agent-platform/sdk/cli';

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
  ...serverOptions,
  tenant: { type: 'string', description: 'tenant alias (X-Tenant-ID)' },
} as const;

export const baseUrlOf = (options: { url?: string }, env = process.env) => serverUrl(options, env);

export const operatorToken = (options: { token?: string }, env = process.env): string => serverToken(options, env);

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
  const response = await serverFetch(`${base}${path}`, { method, headers, body });
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

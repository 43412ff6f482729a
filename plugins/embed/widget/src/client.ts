// The HTTP client of the widget: every request asks the host's token provider
// first (tokens expire; the service never sees a cached one), carries the
// client key as `selected_client` and, when asked, the embed marker header.
import type { Manifest, Session, StoredMessage, UploadResult } from './types.ts';
import type { TokenProvider } from './options.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, message: string, code?: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export interface ClientConfig {
  apiUrl: string;
  clientKey: string;
  /** Sent as X-Tenant-ID when set. */
  tenant?: string;
  markEmbedRequests: boolean;
  tokenProvider: TokenProvider | undefined;
}

/** The chat's capability keys: only the widgets this client renders are ever requested. */
export const CAPABILITY_KEYS = ['ask_user', 'map_widget', 'report_widget', 'widget_stream'];

export class ChatClient {
  readonly config: ClientConfig;
  constructor(config: ClientConfig) {
    this.config = config;
  }

  url(path: string, query: Record<string, string> = {}): string {
    const url = new URL(`${this.config.apiUrl}${path}`);
    url.searchParams.set('selected_client', this.config.clientKey);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    return url.toString();
  }

  async headers(extra: Record<string, string> = {}): Promise<Record<string, string>> {
    const headers: Record<string, string> = { ...extra };
    const token = this.config.tokenProvider ? await this.config.tokenProvider() : undefined;
    if (token) headers.authorization = `Bearer ${token}`;
    if (this.config.tenant) headers['x-tenant-id'] = this.config.tenant;
    if (this.config.markEmbedRequests) headers['x-platform-embed'] = '1';
    return headers;
  }

  async request<T>(method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.url(path, query), {
        method, headers: await this.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new ApiError(0, (error as Error).message, 'NETWORK');
    }
    if (!response.ok) throw await errorOf(response);
    return (response.status === 204 ? undefined : await response.json()) as T;
  }

  async manifest(): Promise<Manifest> {
    let response: Response;
    try {
      response = await fetch(`${this.config.apiUrl}/api/embed/manifest/${encodeURIComponent(this.config.clientKey)}`);
    } catch (error) {
      // A disallowed origin's manifest answer carries no CORS header: the browser reports a network error.
      throw new ApiError(0, (error as Error).message, 'NETWORK');
    }
    if (!response.ok) throw await errorOf(response);
    return response.json();
  }

  sessions = () => this.request<{ items: Session[] }>('GET', '/api/sessions').then((r) => r.items);
  createSession = () => this.request<Session>('POST', '/api/sessions', {});
  renameSession = (id: string, title: string) => this.request<Session>('PATCH', `/api/sessions/${id}`, { title });
  deleteSession = (id: string) => this.request<void>('DELETE', `/api/sessions/${id}`);
  messages = (id: string) => this.request<{ items: StoredMessage[] }>('GET', `/api/sessions/${id}/messages`, undefined, { limit: '200' }).then((r) => r.items);
  cancel = (id: string, turnId?: string) => this.request<{ status: string }>('POST', `/api/chat/${id}/cancel`, undefined, turnId ? { turn_id: turnId } : {});
  feedback = (id: string, body: { message_id: number; rating: number; comment: string }) => this.request<unknown>('POST', `/api/chat/${id}/feedback`, body);

  /** Opens an SSE response: a question, an ask_user answer, or the resume of a turn after `after`. */
  async openStream(kind: 'ask' | 'answer' | 'resume', sessionId: string, input: Record<string, unknown>, signal: AbortSignal): Promise<Response> {
    const accept = { accept: 'text/event-stream' };
    const [method, path, query, body] =
      kind === 'ask' ? ['POST', `/api/chat/${sessionId}`, {}, { content: input.content, capability_keys: CAPABILITY_KEYS }]
        : kind === 'answer' ? ['POST', `/api/chat/${sessionId}/human-input`, {}, input]
          : ['GET', `/api/chat/${sessionId}/stream`, { after: String(input.after), ...(input.turnId ? { turn_id: String(input.turnId) } : {}) }, undefined];
    const response = await fetch(this.url(path as string, query as Record<string, string>), {
      method: method as string, signal,
      headers: await this.headers(body ? { ...accept, 'content-type': 'application/json' } : accept),
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw await errorOf(response);
    return response;
  }

  /** Multipart upload through XMLHttpRequest: fetch reports no upload progress. */
  async upload(sessionId: string, file: File, onProgress: (fraction: number) => void): Promise<UploadResult> {
    const headers = await this.headers();
    const url = `${this.config.apiUrl}/api/embed/sessions/${sessionId}/uploads?selected_client=${encodeURIComponent(this.config.clientKey)}`;
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', url);
      for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); };
      xhr.onerror = () => reject(new ApiError(0, 'network error', 'NETWORK'));
      xhr.onload = () => {
        let body: any;
        try { body = JSON.parse(xhr.responseText); } catch { body = {}; }
        if (xhr.status >= 200 && xhr.status < 300) resolve(body);
        else reject(new ApiError(xhr.status, body.message ?? xhr.statusText, body.code));
      };
      const form = new FormData();
      form.append('file', file, file.name);
      xhr.send(form);
    });
  }
}

async function errorOf(response: Response): Promise<ApiError> {
  const body = await response.json().catch(() => ({})) as { message?: string; code?: string };
  return new ApiError(response.status, body.message ?? response.statusText, body.code);
}

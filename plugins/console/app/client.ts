// The console's one HTTP client of the platform's REST API: the bearer token
// and X-Tenant-ID on every call, JSON in and out, and an error answer turned
// into an ApiError whose message the shell shows and announces (unless the
// caller handles it: `quiet`).
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, message: string, code?: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON, or a FormData (multipart). */
  body?: unknown;
  /** The caller shows the failure itself: the shell does not announce it. */
  quiet?: boolean;
  /** Resolve with the body of any status (readiness answers 503 with a body). */
  anyStatus?: boolean;
}

export interface ApiClientSettings {
  token: () => string | null;
  tenant: () => string | null;
  /** A failure to show (not called for `quiet` requests). */
  onError: (error: ApiError) => void;
  /** A 401 on a signed-in call: the token has expired or was revoked. */
  onUnauthorized: () => void;
  networkMessage: () => string;
}

export class ApiClient {
  private readonly settings: ApiClientSettings;
  constructor(settings: ApiClientSettings) {
    this.settings = settings;
  }

  /** The signed-in person's bearer token, for a part of the page that calls the API on its own (the chat widget). */
  bearer(): string | null { return this.settings.token(); }

  get<T>(path: string, options: RequestOptions = {}): Promise<T> { return this.request<T>('GET', path, options); }
  post<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> { return this.request<T>('POST', path, { ...options, body }); }
  put<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> { return this.request<T>('PUT', path, { ...options, body }); }
  patch<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> { return this.request<T>('PATCH', path, { ...options, body }); }
  delete<T>(path: string, options: RequestOptions = {}): Promise<T> { return this.request<T>('DELETE', path, options); }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(path, location.origin);
    for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = this.settings.token();
    if (token) headers.authorization = `Bearer ${token}`;
    const tenant = this.settings.tenant();
    if (tenant) headers['x-tenant-id'] = tenant;
    // A FormData body (an upload) sets its own multipart type.
    const form = options.body instanceof FormData;
    if (options.body !== undefined && !form) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body: options.body === undefined ? undefined : form ? options.body as FormData : JSON.stringify(options.body), credentials: 'omit', cache: 'no-store' });
    } catch {
      throw this.fail(new ApiError(0, this.settings.networkMessage(), 'NETWORK'), options);
    }
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    if (response.ok || options.anyStatus) return body as T;
    const fields = (body && typeof body === 'object' ? body : {}) as { message?: string; code?: string; error?: string };
    const error = new ApiError(response.status, fields.message || fields.error || `${response.status} ${response.statusText}`, fields.code);
    if (response.status === 401 && token) this.settings.onUnauthorized();
    throw this.fail(error, options);
  }

  private fail(error: ApiError, options: RequestOptions): ApiError {
    if (!options.quiet) this.settings.onError(error);
    return error;
  }
}

// The `http_request` platform function: one HTTP call with ofetch, bounded in
// time (a signal that also covers reading the body) and in response size, and
// refused for private, loopback and link-local addresses unless the
// deployment sets allowPrivateNetworks.
import { createFetch } from 'ofetch';
import { BlockedAddressError, domainError, type FunctionDefinition, readCapped } from 'agent-platform/sdk';

export interface HttpRequestOptions {
  /** The transport: core.http.fetch, guarded unless allowPrivateNetworks. */
  fetch: typeof fetch;
  defaultTimeoutMs: number;
  maxResponseBytes: number;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const MAX_TIMEOUT_MS = 120_000;

function parseBody(bytes: Uint8Array, contentType: string | null): unknown {
  if (bytes.byteLength === 0) return null;
  const text = new TextDecoder().decode(bytes);
  if (contentType && /[/+]json\b/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text; // a server that mislabels its body: keep what it sent
    }
  }
  return text;
}

/** Errors of the transport, as domain errors a step history (or an API caller) can read. */
function describe(err: unknown, url: URL, timeoutMs: number, timedOut: boolean): Error {
  const error = err as { cause?: unknown; isBoom?: boolean };
  if (error.isBoom) return err as Error;
  const cause = (error.cause ?? err) as { message?: string; code?: string };
  if (timedOut) {
    return domainError(504, `${url.origin} did not answer within ${timeoutMs} ms`, 'UPSTREAM_TIMEOUT');
  }
  if (cause instanceof BlockedAddressError || err instanceof BlockedAddressError) {
    return domainError(403, `Refused: ${cause.message} (private networks are not allowed)`, 'ADDRESS_NOT_ALLOWED');
  }
  return domainError(502, `Request to ${url.origin} failed: ${cause.code ?? cause.message ?? 'network error'}`, 'UPSTREAM_ERROR');
}

export function httpRequestFunction(options: HttpRequestOptions): FunctionDefinition {
  const $fetch = createFetch({ fetch: options.fetch });
  return {
    description:
      'Make an HTTP request and return {status, headers, body}; JSON bodies are parsed. ' +
      `Times out after timeout_ms (default ${options.defaultTimeoutMs}); responses over ${options.maxResponseBytes} bytes are refused.`,
    parameters: {
      properties: {
        url: { type: 'string', pattern: '^[hH][tT][tT][pP][sS]?://', maxLength: 8192 },
        method: { type: 'string', enum: [...METHODS, ...METHODS.map((m) => m.toLowerCase())], default: 'GET' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        query: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
        body: { description: 'JSON value (sent as application/json) or a string' },
        timeout_ms: { type: 'integer', minimum: 1, maximum: MAX_TIMEOUT_MS },
      },
      required: ['url'],
      additionalProperties: false,
    },
    async handler(args) {
      const url = new URL(args.url);
      const method = String(args.method).toUpperCase();
      const timeoutMs: number = args.timeout_ms ?? options.defaultTimeoutMs;
      const headers = new Headers(args.headers ?? {});
      if (args.body !== undefined && (method === 'GET' || method === 'HEAD')) {
        throw domainError(400, `a ${method} request has no body`, 'INVALID_ARGUMENTS');
      }
      // ofetch would label a string body as JSON; a plain string is text unless the caller says otherwise.
      if (typeof args.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=utf-8');
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const response = await $fetch.raw(url.toString(), {
          method: method as 'GET',
          headers,
          body: args.body,
          query: args.query,
          signal,
          responseType: 'stream',
          ignoreResponseError: true,
          retry: false,
        });
        const declared = Number(response.headers.get('content-length'));
        if (declared > options.maxResponseBytes) {
          await (response._data as ReadableStream | undefined)?.cancel().catch(() => {});
          throw domainError(502, `the response body exceeds ${options.maxResponseBytes} bytes`, 'RESPONSE_TOO_LARGE');
        }
        const bytes = await readCapped(response._data as ReadableStream<Uint8Array> | undefined, options.maxResponseBytes);
        return {
          status: response.status,
          headers: Object.fromEntries(response.headers.entries()),
          body: parseBody(bytes, response.headers.get('content-type')),
        };
      } catch (err) {
        throw describe(err, url, timeoutMs, signal.aborted);
      }
    },
  };
}

// Every outbound request of this plugin (reading a spec and its remote $refs,
// fetching an oauth2 token, calling an imported operation) goes through here:
// ofetch over the core's guarded fetch (core.http.fetch: private and loopback
// addresses are refused at connect time unless allowed), one timeout covering the whole
// exchange, a cap on the response size, and redirects followed here rather
// than by the transport, so that credentials (a custom header, a query
// parameter) never travel to another origin.
import { createFetch } from 'ofetch';
import { BlockedAddressError, domainError, followRedirect, isRedirect, MAX_REDIRECTS, readCapped } from 'agent-platform/sdk';

export interface HttpClientOptions {
  /** The transport: core.http.fetch (guarded unless the plugin allows private networks). */
  fetch: typeof fetch;
  timeoutMs: number;
  maxResponseBytes: number;
}

export interface OutboundRequest {
  method: string;
  url: URL;
  headers: Headers;
  body?: string | Uint8Array;
  /** Headers and query parameters that carry credentials: dropped on a redirect to another origin. */
  credentialHeaders?: string[];
  credentialQuery?: string[];
  timeoutMs?: number;
  maxResponseBytes?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  /** The URL that answered (after redirects), without its query string. */
  url: string;
}

export type HttpClient = (request: OutboundRequest) => Promise<OutboundResponse>;

/** Transport failures as domain errors naming only the origin (a query string may hold a credential). */
function describe(err: unknown, url: URL, timeoutMs: number, timedOut: boolean): Error {
  const error = err as { cause?: unknown; isBoom?: boolean };
  if (error.isBoom) return err as Error;
  const cause = (error.cause ?? err) as { message?: string; code?: string };
  if (timedOut) return domainError(504, `${url.origin} did not answer within ${timeoutMs} ms`, 'UPSTREAM_TIMEOUT');
  if (cause instanceof BlockedAddressError || err instanceof BlockedAddressError) {
    return domainError(403, `Refused: ${cause.message} (private networks are not allowed; see INTEGRATIONS_ALLOW_PRIVATE_NETWORKS)`, 'ADDRESS_NOT_ALLOWED');
  }
  return domainError(502, `Request to ${url.origin} failed: ${cause.code ?? cause.message ?? 'network error'}`, 'UPSTREAM_ERROR');
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const $fetch = createFetch({ fetch: options.fetch });
  return async (request) => {
    const timeoutMs = request.timeoutMs ?? options.timeoutMs;
    const cap = request.maxResponseBytes ?? options.maxResponseBytes;
    const signal = AbortSignal.timeout(timeoutMs);
    let url = request.url;
    let method = request.method.toUpperCase();
    let body = request.body;
    const headers = new Headers(request.headers);
    try {
      for (let hop = 0; ; hop++) {
        const response = await $fetch.raw(url.href, {
          method: method as 'GET',
          headers,
          body,
          signal,
          redirect: 'manual',
          responseType: 'stream',
          ignoreResponseError: true,
          retry: false,
        });
        const stream = response._data as ReadableStream<Uint8Array> | undefined;
        const location = response.headers.get('location');
        if (isRedirect(response.status, location)) {
          await stream?.cancel().catch(() => {});
          if (hop >= MAX_REDIRECTS) throw domainError(502, `${url.origin} redirected more than ${MAX_REDIRECTS} times`, 'UPSTREAM_ERROR');
          const next = followRedirect(url, method, response.status, location, headers, request.credentialHeaders);
          if (next.url.origin !== url.origin) for (const name of request.credentialQuery ?? []) next.url.searchParams.delete(name);
          ({ url, method } = next);
          if (!next.keepBody) body = undefined;
          continue;
        }
        const declared = Number(response.headers.get('content-length'));
        if (declared > cap) {
          await stream?.cancel().catch(() => {});
          throw domainError(502, `the response body exceeds ${cap} bytes`, 'RESPONSE_TOO_LARGE');
        }
        const bytes = await readCapped(stream, cap);
        return { status: response.status, headers: response.headers, bytes, url: `${url.origin}${url.pathname}` };
      }
    } catch (err) {
      throw describe(err, url, timeoutMs, signal.aborted);
    }
  };
}

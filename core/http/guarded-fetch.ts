// A fetch (for ofetch's createFetch) over node:http/https that refuses private
// addresses at connect time: the check runs inside the socket's DNS lookup, so
// the address checked is the address connected to (no DNS-rebinding gap), and
// every redirect hop is checked again. While tracing is on, each call is a
// client span whose `traceparent` the request carries (telemetry/outbound.ts).
import http from 'node:http';
import https from 'node:https';
import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { isPrivateAddress } from './addresses.ts';
import { followRedirect, isRedirect, MAX_REDIRECTS } from './redirect.ts';
import { tracing } from '../telemetry/tracing.ts';
import { traceOutbound } from '../telemetry/outbound.ts';

export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
}

const NULL_BODY = new Set([101, 204, 205, 304]);

function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const refused = allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address));
      if (refused) {
        return callback(new BlockedAddressError(`${hostname} resolves to a private address (${refused.address})`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, all: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

function checkLiteral(url: URL, allowPrivate: boolean): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Node connects to IP literals without a lookup, so they are checked here.
  if (!allowPrivate && isIP(host) && isPrivateAddress(host)) throw new BlockedAddressError(`${host} is a private address`);
}

function bodyBytes(body: unknown): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  throw new TypeError('request body must be a string or bytes');
}

function once(url: URL, method: string, headers: Headers, body: Buffer | undefined, signal: AbortSignal | undefined, allowPrivate: boolean) {
  checkLiteral(url, allowPrivate);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported protocol ${url.protocol}`);
  const transport = url.protocol === 'https:' ? https : http;
  const outgoing: Record<string, string> = {};
  headers.forEach((value, name) => (outgoing[name] = value));
  if (body) outgoing['content-length'] = String(body.length);
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = transport.request(url, { method, headers: outgoing, signal, lookup: guardedLookup(allowPrivate) }, resolve);
    request.on('error', reject);
    request.end(body);
  });
}

function toResponse(incoming: http.IncomingMessage, url: URL): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    for (const item of [value ?? []].flat()) headers.append(name, item);
  }
  const status = incoming.statusCode ?? 502;
  let body: ReadableStream | null = null;
  if (NULL_BODY.has(status)) incoming.resume();
  else body = Readable.toWeb(incoming) as ReadableStream;
  const response = new Response(body, { status, statusText: incoming.statusMessage, headers });
  Object.defineProperty(response, 'url', { value: url.toString() });
  return response;
}

export function createGuardedFetch(allowPrivate: boolean): typeof fetch {
  return async (input, init = {}) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    let method = (init.method ?? 'GET').toUpperCase();
    let body = bodyBytes(init.body);
    const headers = new Headers(init.headers);
    const send = async () => {
      for (let hop = 0; ; hop++) {
        const incoming = await once(url, method, headers, body, init.signal ?? undefined, allowPrivate);
        const location = incoming.headers.location;
        if (!isRedirect(incoming.statusCode ?? 0, location) || init.redirect === 'manual') return toResponse(incoming, url);
        incoming.resume();
        if (hop >= MAX_REDIRECTS) throw new TypeError(`more than ${MAX_REDIRECTS} redirects`);
        const next = followRedirect(url, method, incoming.statusCode ?? 0, location, headers);
        ({ url, method } = next);
        if (!next.keepBody) body = undefined;
      }
    };
    return tracing() ? traceOutbound(url, method, headers, send) : send();
  };
}

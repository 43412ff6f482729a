// A server span per HTTP request: started at hapi's onRequest (continuing a
// W3C `traceparent` the caller sent) and made the active context of the
// request's lifecycle, ended at the response with its route, method and
// status. Registered only while tracing is on, before every other extension.
import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { HTTP_REQUEST_METHOD, HTTP_RESPONSE_STATUS_CODE, HTTP_ROUTE, URL_PATH, URL_SCHEME } from './attributes.ts';
import type { Request, Server } from '@hapi/hapi';
import { activeTracer } from './tracing.ts';
import type { Telemetry } from './sdk.ts';

/** hapi's route for an unmatched path (its 404) has this method. */
const NOT_FOUND_METHOD = '_special';

function statusOf(request: Request): number {
  const response = request.response as { isBoom?: boolean; output?: { statusCode: number }; statusCode?: number } | null;
  if (response?.isBoom) return response.output?.statusCode ?? 500;
  return response?.statusCode ?? request.raw.res.statusCode;
}

export function registerHttpTracing(server: Server, telemetry: Pick<Telemetry, 'enter'>): void {
  const spans = new WeakMap<Request, Span>();
  server.ext('onRequest', (request, h) => {
    const method = request.method.toUpperCase();
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = activeTracer().startSpan(method, {
      kind: SpanKind.SERVER,
      attributes: { [HTTP_REQUEST_METHOD]: method, [URL_PATH]: request.path, [URL_SCHEME]: request.url.protocol.replace(/:$/, '') },
    }, parent);
    spans.set(request, span);
    telemetry.enter(trace.setSpan(parent, span));
    return h.continue;
  });
  server.events.on('response', (request: Request) => {
    const span = spans.get(request);
    if (!span) return;
    spans.delete(request);
    const method = request.method.toUpperCase();
    const route = request.route && (request.route.method as string) !== NOT_FOUND_METHOD ? request.route.path : undefined;
    if (route) {
      span.updateName(`${method} ${route}`);
      span.setAttribute(HTTP_ROUTE, route);
    }
    const status = statusOf(request);
    span.setAttribute(HTTP_RESPONSE_STATUS_CODE, status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}

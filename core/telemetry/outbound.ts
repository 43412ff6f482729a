// A client span per outbound request through the guarded fetch, with the W3C
// `traceparent` of that span added to the request's headers.
import { context, propagation, SpanStatusCode } from '@opentelemetry/api';
import { HTTP_REQUEST_METHOD, HTTP_RESPONSE_STATUS_CODE, SERVER_ADDRESS, URL_FULL } from './attributes.ts';
import { inSpan, SpanKind } from './tracing.ts';

/** `send` with `headers` carrying the span's trace context; the URL's query and credentials stay out of the span. */
export function traceOutbound(url: URL, method: string, headers: Headers, send: () => Promise<Response>): Promise<Response> {
  return inSpan(method, {
    kind: SpanKind.CLIENT,
    attributes: { [HTTP_REQUEST_METHOD]: method, [SERVER_ADDRESS]: url.hostname, [URL_FULL]: `${url.origin}${url.pathname}` },
  }, async (span) => {
    propagation.inject(context.active(), headers, { set: (carrier, key, value) => carrier.set(key, value) });
    const response = await send();
    span?.setAttribute(HTTP_RESPONSE_STATUS_CODE, response.status);
    if (response.status >= 500) span?.setStatus({ code: SpanStatusCode.ERROR });
    return response;
  });
}

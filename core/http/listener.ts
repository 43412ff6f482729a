// The HTTP listener hapi serves on, with Node's connection limits set from
// the configuration. A connection must send its whole head within
// HTTP_HEADERS_TIMEOUT_SECONDS and its whole request, body included, within
// HTTP_REQUEST_TIMEOUT_SECONDS; the response is never timed, so SSE streams
// (chat, GraphQL subscriptions) stay open as long as they need. An idle
// keep-alive connection closes after HTTP_KEEP_ALIVE_TIMEOUT_SECONDS, and a
// connection past HTTP_MAX_CONNECTIONS is closed as it arrives.
//
// A connection that breaks (a malformed or timed-out request, a reset) is
// answered when nothing was written on it yet (400, 408, 431), destroyed, and
// logged at debug as one line without a stack: clients dropping connections
// is ordinary traffic, not a server error. hapi's own handler of these errors
// only half-closes the socket (the listener allows half-open connections), so
// a client that never closes its side would keep it open: it is replaced.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';

export interface ListenerLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
}

const response = (status: string) => Buffer.from(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, 'latin1');
const ANSWERS: Record<string, Buffer> = {
  ERR_HTTP_REQUEST_TIMEOUT: response('408 Request Timeout'),
  HPE_HEADER_OVERFLOW: response('431 Request Header Fields Too Large'),
};
const BAD_REQUEST = response('400 Bad Request');
/** Errors of a connection the client broke: nothing can be answered on it. */
const GONE = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED']);

/** How often Node looks for connections past their head or request deadline: a fraction of the head timeout, at most a second. */
export function checkingIntervalMs(headersTimeoutMs: number): number {
  return Math.max(50, Math.min(1000, Math.floor(headersTimeoutMs / 4)));
}

export function createListener(limits: ListenerLimits): http.Server {
  const listener = http.createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: checkingIntervalMs(limits.headersTimeoutMs),
  });
  listener.maxConnections = limits.maxConnections;
  return listener;
}

/** Replaces hapi's handling of broken connections (call once hapi has made its server on `listener`). */
export function handleDroppedConnections(listener: http.Server, logger: Logger): void {
  listener.removeAllListeners('clientError');
  listener.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const code = err.code ?? 'UNKNOWN';
    const net = socket as Socket;
    logger.debug({ code, remoteAddress: net.remoteAddress }, `client connection dropped (${code})`);
    if (!GONE.has(code) && socket.writable && net.bytesWritten === 0) socket.write(ANSWERS[code] ?? BAD_REQUEST);
    socket.destroy();
  });
  listener.on('drop', (data?: { remoteAddress?: string }) => {
    logger.debug({ remoteAddress: data?.remoteAddress, maxConnections: listener.maxConnections }, 'connection refused: HTTP_MAX_CONNECTIONS reached');
  });
}

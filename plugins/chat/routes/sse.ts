// An SSE response fed by a turn's frames, written straight to the socket:
// one socket write per frame (framed as an HTTP chunk here, so not through
// the response's cork, next-tick uncork and three-buffer writev), no stream
// piping in between (the relay's per-token cost). Errors found before the stream starts (validation,
// ownership, a busy session) are ordinary hapi error responses; once the head
// is written the request is taken over (h.abandon). The stream ends with the
// turn (or its suspension); a client that goes away only detaches: the turn
// goes on and its frames stay readable (GET /api/chat/{session_id}/stream?after=).
import { Socket } from 'node:net';
import type { ServerResponse } from 'node:http';
import type { Request, ResponseToolkit } from '@hapi/hapi';
import type { Subscriber } from '../turn/channel.ts';

/** `release` (the tenant's stream slot) is called once the response is over, or when attaching fails. */
export async function sseResponse(
  request: Request, h: ResponseToolkit, attach: (out: Subscriber) => (() => void) | Promise<() => void>, release: () => void = () => {},
) {
  const res = request.raw.res;
  let headed = false;
  let closed = false;
  let ended = false;
  const early: string[] = [];
  let detach: (() => void) | undefined;
  let send: (chunk: string) => void = (chunk) => res.write(chunk);
  const out: Subscriber = {
    write: (chunk) => {
      if (closed) return;
      if (headed) send(chunk);
      else early.push(chunk);
    },
    end: () => {
      if (ended) return;
      ended = true;
      if (headed && !closed) res.end();
    },
  };
  // May throw (404, 403, 409): nothing is written yet, hapi answers the error.
  try {
    detach = await attach(out);
  } catch (err) {
    release();
    throw err;
  }
  res.once('close', () => {
    closed = true;
    detach?.();
    release();
  });
  // Injected requests (tests) finish without a socket to close.
  res.once('finish', release);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  send = directWriter(res);
  headed = true;
  if (early.length > 0) send(early.join(''));
  if (ended) res.end();
  return h.abandon;
}

/**
 * Writes body chunks straight to the response's socket once its head is
 * out: as HTTP chunks when the response is chunked (res.end() still writes
 * the last chunk), as they are otherwise (an HTTP/1.0 client: the body ends
 * with the connection). Through res.write where there is no socket of its own
 * (an injected request).
 */
function directWriter(res: ServerResponse): (chunk: string) => void {
  const socket = res.socket;
  const chunked = (res as ServerResponse & { chunkedEncoding?: boolean }).chunkedEncoding === true;
  if (!(socket instanceof Socket) || !res.headersSent) return (chunk) => res.write(chunk);
  if (!chunked) return (chunk) => socket.write(chunk);
  return (chunk) => socket.write(`${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`);
}

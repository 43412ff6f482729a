// Domain errors and their rendering. Services throw `domainError`s (or Boom
// errors) and know nothing of HTTP beyond a status; every error leaves the
// server as {statusCode, error, message, code?}.
import Boom from '@hapi/boom';
import type { Server, Request, ResponseToolkit, Lifecycle } from '@hapi/hapi';
// Declares request.logger: a program that reaches this module through the SDK alone (a plugin package's build) sees it too.
import type {} from './http/request-log.ts';

export function domainError(status: number, message: string, code?: string): Boom.Boom {
  const error = new Boom.Boom(message, { statusCode: status });
  if (code) (error.output.payload as Record<string, unknown>).code = code;
  return error;
}

export const badRequest = (message: string, code?: string) => domainError(400, message, code);
export const unauthorized = (message: string, code?: string) => domainError(401, message, code);
export const forbidden = (message: string, code?: string) => domainError(403, message, code);
export const notFound = (message: string, code?: string) => domainError(404, message, code);
export const conflict = (message: string, code?: string) => domainError(409, message, code);

/** 429 with Retry-After (whole seconds, at least 1): the caller may try again then. */
export function tooManyRequests(message: string, code: string, retryAfterSeconds: number): Boom.Boom {
  const error = domainError(429, message, code);
  error.output.headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  return error;
}

/** Joi failures name the offending field; the message is the joi message. */
export const validationFailAction: Lifecycle.FailAction = (_request, _h, err) => {
  const details = (err as { details?: { message: string; path: (string | number)[] }[] } | undefined)?.details;
  const message = details?.length ? details.map((d) => d.message).join('; ') : (err?.message ?? 'Invalid request');
  const error = badRequest(message, 'VALIDATION_FAILED');
  if (details?.length) {
    (error.output.payload as Record<string, unknown>).fields = details.map((d) => d.path.join('.'));
  }
  throw error;
};

/** Postgres errors that are the caller's fault become 4xx, never a 500. */
function fromPostgres(err: { code?: string; constraint?: string }): Boom.Boom | undefined {
  if (err.code === '23505') return conflict('A record with these values already exists', 'CONFLICT');
  if (err.code === '22P02' || err.code === '22023') return badRequest('Malformed value in request', 'VALIDATION_FAILED');
  if (err.code === '23503') return badRequest('Referenced record does not exist', 'REFERENCE_NOT_FOUND');
  return undefined;
}

export function registerErrorRendering(server: Server): void {
  server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
    const response = request.response as unknown;
    if (!Boom.isBoom(response as Error)) return h.continue;
    let error = response as Boom.Boom;
    const mapped = !error.isServer ? undefined : fromPostgres(error as never);
    if (mapped) error = mapped;
    const payload = error.output.payload as Record<string, unknown>;
    // Boom's 500 payload already hides the message; make sure nothing else leaks.
    if (error.isServer && !mapped) request.logger?.error({ err: error }, 'request failed');
    if (error.isServer && error.output.statusCode === 500) {
      payload.message = 'An internal server error occurred';
      delete payload.code;
    }
    const body: Record<string, unknown> = {
      statusCode: error.output.statusCode,
      error: payload.error,
      message: payload.message,
    };
    for (const key of Object.keys(payload)) if (!(key in body)) body[key] = payload[key];
    const reply = h.response(body).code(error.output.statusCode);
    for (const [name, value] of Object.entries(error.output.headers)) reply.header(name, String(value));
    return reply;
  });
}

// Rejects text PostgreSQL cannot store before any route sees it: U+0000 (text
// and jsonb refuse it) and lone UTF-16 surrogates (JSON.stringify writes them
// as `\udXXX` escapes, which jsonb refuses). Without this a NUL in a path
// parameter or a payload string reaches SQL and comes back as a 500. One check
// for every route, plugins included: path parameters, query values and header
// values before authentication, JSON payloads (keys and values, at any depth)
// once parsed. The 400 names the field.
import type { Server, Request, ResponseToolkit } from '@hapi/hapi';
import { badRequest } from '../errors.ts';

// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const INVALID_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Deep enough for any payload a route accepts; below it nothing is walked (joi and the route decide). */
const MAX_DEPTH = 64;

/** The dotted path of the first string (or key) holding invalid text, or undefined. */
export function findInvalidText(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return INVALID_TEXT.test(value) ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (Buffer.isBuffer(value)) return undefined;
  if (depth > MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findInvalidText(value[i], `${path}.${i}`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (INVALID_TEXT.test(key)) return `${path}.${key.replace(INVALID_TEXT, '?')}`;
    const found = findInvalidText(item, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function refuse(field: string): never {
  const error = badRequest(`"${field}" contains a NUL character or invalid Unicode text`, 'INVALID_TEXT');
  (error.output.payload as Record<string, unknown>).fields = [field];
  throw error;
}

/**
 * A route that reads its body raw (parse: false: signed webhooks) parses the
 * JSON itself, after its own checks: the same text rules hold for it, so a
 * JSON body (by content type or the route's override) is parsed here too.
 * Not JSON, or not parseable: the route answers as it would.
 */
function rawJson(request: Request): unknown {
  if (!Buffer.isBuffer(request.payload) || request.payload.length === 0) return undefined;
  const type = String(request.route.settings.payload?.override ?? request.headers['content-type'] ?? '');
  if (!/[/+]json\b/i.test(type)) return undefined;
  try {
    return JSON.parse(request.payload.toString('utf8'));
  } catch {
    return undefined;
  }
}

export function registerTextGuard(server: Server): void {
  server.ext('onPreAuth', (request: Request, h: ResponseToolkit) => {
    const found =
      findInvalidText(request.params, 'params') ??
      findInvalidText(request.query, 'query') ??
      findInvalidText(request.headers, 'headers');
    if (found) refuse(found);
    return h.continue;
  });
  // Registered before the tenant context's onPostAuth, so it runs first.
  server.ext('onPostAuth', (request: Request, h: ResponseToolkit) => {
    const found = findInvalidText(rawJson(request) ?? request.payload, 'payload');
    if (found) refuse(found);
    return h.continue;
  });
}

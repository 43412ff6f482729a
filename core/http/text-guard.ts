// Rejects text PostgreSQL cannot store before any route sees it: U+0000 (text
// and jsonb refuse it) and lone UTF-16 surrogates (JSON.stringify writes them
// as `\udXXX` escapes, which jsonb refuses). Without this a NUL in a path
// parameter or a payload string reaches SQL and comes back as a 500. One check
// for every route, plugins included: path parameters, query values and header
// values before authentication, JSON payloads (keys and values) once parsed.
// The walk covers the whole value: a value nested deeper than
// MAX_PAYLOAD_DEPTH levels is refused for its depth (400 PAYLOAD_TOO_DEEP),
// so nothing unwalked passes, and nothing that deep reaches recursive code or
// PostgreSQL's JSON parser. The 400 names the field.
import type { Server, Request, ResponseToolkit } from '@hapi/hapi';
import { badRequest } from '../errors.ts';

// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const INVALID_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Text without a NUL or any surrogate (nearly all of it) is valid: the exact test runs only on what this finds.
const SUSPECT_TEXT = /[\u0000\uD800-\uDFFF]/;

function invalidText(text: string): boolean {
  return SUSPECT_TEXT.test(text) && INVALID_TEXT.test(text);
}

/** Levels of nesting a payload may have (free-form fields are bounded tighter: boundedJson). */
export const MAX_PAYLOAD_DEPTH = 64;

/** What the walk found first: invalid text at a dotted path, or nesting past MAX_PAYLOAD_DEPTH. */
export type TextFinding = { problem: 'text' | 'depth'; path: string } | undefined;

interface Visit {
  value: unknown;
  /** containers above this value */
  depth: number;
  key: string;
  parent?: Visit;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}

/** Walks the whole value without recursion (any depth, any size): the first invalid string or key, or a container too deep. */
export function inspectText(value: unknown, root: string): TextFinding {
  const pending: Visit[] = [{ value, depth: 0, key: root }];
  while (pending.length) {
    const visit = pending.pop()!;
    const item = visit.value;
    if (typeof item === 'string') {
      if (invalidText(item)) return { problem: 'text', path: pathOf(visit) };
      continue;
    }
    // Parsed data only: arrays and plain objects. A Buffer or a Date is not walked; a multipart file part
    // (a stream) only for what hapi says of it (filename, headers).
    if (!Array.isArray(item) && !isPlainObject(item)) {
      const described = (item as { hapi?: unknown } | null)?.hapi;
      if (typeof item === 'object' && isPlainObject(described)) pending.push({ value: described, depth: visit.depth + 1, key: 'hapi', parent: visit });
      continue;
    }
    if (visit.depth >= MAX_PAYLOAD_DEPTH) return { problem: 'depth', path: root };
    const depth = visit.depth + 1;
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) pending.push({ value: item[i], depth, key: String(i), parent: visit });
      continue;
    }
    const entries = Object.entries(item);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      if (invalidText(key)) return { problem: 'text', path: `${pathOf(visit)}.${key.replace(INVALID_TEXT, '?')}` };
      pending.push({ value: child, depth, key, parent: visit });
    }
  }
  return undefined;
}

function refuse(found: NonNullable<TextFinding>): never {
  const error = found.problem === 'depth'
    ? badRequest(`"${found.path}" is nested deeper than ${MAX_PAYLOAD_DEPTH} levels`, 'PAYLOAD_TOO_DEEP')
    : badRequest(`"${found.path}" contains a NUL character or invalid Unicode text`, 'INVALID_TEXT');
  (error.output.payload as Record<string, unknown>).fields = [found.path];
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

/**
 * inspectText of an object whose values are all strings (headers, most params
 * and queries), with the same finding, without the walk; any other object walks.
 */
function inspectFlat(value: Record<string, unknown>, root: string): TextFinding {
  const keys = Object.keys(value);
  for (const key of keys) if (typeof value[key] !== 'string') return inspectText(value, root);
  // As the walk does: every key first (the last bad one is named), then the values in order.
  for (let i = keys.length - 1; i >= 0; i--) {
    if (invalidText(keys[i])) return { problem: 'text', path: `${root}.${keys[i].replace(INVALID_TEXT, '?')}` };
  }
  for (const key of keys) if (invalidText(value[key] as string)) return { problem: 'text', path: `${root}.${key}` };
  return undefined;
}

export function registerTextGuard(server: Server): void {
  server.ext('onPreAuth', (request: Request, h: ResponseToolkit) => {
    const found =
      inspectFlat(request.params, 'params') ??
      inspectFlat(request.query, 'query') ??
      inspectFlat(request.headers, 'headers');
    if (found) refuse(found);
    return h.continue;
  });
  // Registered before the tenant context's onPostAuth, so it runs first.
  server.ext('onPostAuth', (request: Request, h: ResponseToolkit) => {
    const found = inspectText(rawJson(request) ?? request.payload, 'payload');
    if (found) refuse(found);
    return h.continue;
  });
}

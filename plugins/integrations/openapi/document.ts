// Reads an OpenAPI description's text (JSON or YAML) into an object and tells
// which of the supported formats it is. Bad input is the caller's fault: 400s.
import YAML from 'yaml';
import { badRequest } from 'agent-platform/sdk';
import type { SpecFormat } from './model.ts';

export function parseDocumentText(text: string): Record<string, unknown> {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (trimmed === '') throw badRequest('The OpenAPI document is empty', 'SPEC_INVALID');
  let parsed: unknown;
  try {
    // JSON is YAML too, but JSON.parse is many times faster on large documents.
    parsed = trimmed.startsWith('{') ? JSON.parse(trimmed) : YAML.parse(trimmed, { merge: true, maxAliasCount: 1000 });
  } catch (err) {
    throw badRequest(`The OpenAPI document is neither valid JSON nor YAML: ${(err as Error).message.split('\n')[0]}`, 'SPEC_INVALID');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badRequest('The OpenAPI document must be an object', 'SPEC_INVALID');
  }
  return withVersionText(parsed as Record<string, unknown>);
}

/**
 * A version written unquoted in YAML reads as a number (`swagger: 2.0` is 2,
 * `openapi: 3.1` is 3.1): it is taken as the text it was written as, which the
 * version checks and the validators downstream expect.
 */
function withVersionText(doc: Record<string, unknown>): Record<string, unknown> {
  if (typeof doc.swagger === 'number') doc.swagger = Number.isInteger(doc.swagger) ? `${doc.swagger}.0` : String(doc.swagger);
  if (typeof doc.openapi === 'number') doc.openapi = Number.isInteger(doc.openapi) ? `${doc.openapi}.0.0` : `${doc.openapi}.0`;
  return doc;
}

export function detectFormat(doc: Record<string, unknown>): SpecFormat {
  if (doc.swagger !== undefined) {
    if (String(doc.swagger) === '2.0') return 'swagger-2.0';
    throw badRequest(`Unsupported Swagger version ${JSON.stringify(doc.swagger)}: only 2.0 is supported`, 'SPEC_UNSUPPORTED');
  }
  if (typeof doc.openapi === 'string') {
    if (/^3\.0\.\d+$/.test(doc.openapi)) return 'openapi-3.0';
    if (/^3\.1\.\d+$/.test(doc.openapi)) return 'openapi-3.1';
    throw badRequest(`Unsupported OpenAPI version ${doc.openapi}: 3.0.x and 3.1.x are supported`, 'SPEC_UNSUPPORTED');
  }
  throw badRequest('Not an OpenAPI description: neither "openapi" (3.0, 3.1) nor "swagger" (2.0) is set', 'SPEC_INVALID');
}

/** The parts every format names the same way. */
export function describeDocument(doc: Record<string, unknown>): { title: string; version: string } {
  const info = (doc.info ?? {}) as Record<string, unknown>;
  return { title: typeof info.title === 'string' ? info.title : '', version: info.version === undefined ? '' : String(info.version) };
}

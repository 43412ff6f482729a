// POST /api/v1/apply/dry-run and POST /api/v1/apply. The body is read raw
// (JSON or YAML: hapi parses JSON only, and validates only what it parsed),
// turned into the envelope (body.ts), then checked by the envelope's joi
// schema, which the OpenAPI document shows as the body.
import type { Lifecycle, ServerRoute } from '@hapi/hapi';
import { badRequest, principalOf, tenantOf } from 'agent-platform/sdk';
import { editor } from '../access.ts';
import { BODY_TYPES, parseBody } from '../request-body/body.ts';
import type { ApplyOptions } from '../options.ts';
import * as s from '../schemas.ts';
import type { ApplyService, Envelope } from '../services/apply.ts';
import type { YamlReader } from '../request-body/yaml-reader.ts';

const tags = ['api', 'apply'];

export function applyRoutes(service: ApplyService, options: ApplyOptions, yaml: YamlReader): ServerRoute[] {
  const envelope = s.envelope(options.maxDocuments);
  // After the tenant and role checks (the server-level onPostAuth), before the handler.
  const toEnvelope: Lifecycle.Method = async (request, h) => {
    const body = await parseBody(request.payload as Buffer | null, String(request.headers['content-type'] ?? 'application/json'), options.maxDocuments, yaml);
    const { error, value } = envelope.validate(body, { abortEarly: false });
    if (error) {
      const refused = badRequest(error.details.map((d) => d.message).join('; '), 'VALIDATION_FAILED');
      (refused.output.payload as unknown as Record<string, unknown>).fields = error.details.map((d) => d.path.join('.'));
      throw refused;
    }
    (request as { payload: unknown }).payload = value;
    return h.continue;
  };
  const routeOptions = (description: string, notes: string) => ({
    auth: 'bearer', tags, description, notes,
    plugins: { platform: editor, openapi: { validate: { payload: envelope } } },
    payload: { parse: false, output: 'data' as const, allow: BODY_TYPES, maxBytes: options.maxBodyBytes },
    ext: { onPostAuth: { method: toEnvelope } },
    response: { schema: s.applyResult },
  });
  const BODY_NOTE = 'JSON, or Content-Type application/yaml: one YAML document holding the envelope, or a stream of documents (---) applied with allow_deprecate and live_ontology false. Unquoted YAML dates and datetimes become ISO 8601 strings; values JSON cannot carry give 400 APPLY_YAML_INVALID (sanitized: no values echoed).';
  return [
    {
      method: 'POST', path: '/api/v1/apply/dry-run',
      options: routeOptions(
        'Plan declarative documents (apiVersion agent-platform/v1): per document create, patch, noop, would-409 or error (Source: per stream too); never writes',
        BODY_NOTE,
      ),
      handler: (request) => service.dryRun(tenantOf(request), principalOf(request), request.payload as Envelope),
    },
    {
      method: 'POST', path: '/api/v1/apply',
      options: routeOptions(
        'Apply declarative documents in one transaction: all or none; answers each document\'s id',
        `${BODY_NOTE} 400 APPLY_INVALID or 409 APPLY_CONFLICT (with the per-document results) when a document does not plan cleanly: nothing is written.`,
      ),
      handler: (request) => service.apply(tenantOf(request), principalOf(request), request.payload as Envelope),
    },
  ];
}

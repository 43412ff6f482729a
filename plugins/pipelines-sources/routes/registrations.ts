// The pattern registry routes: not a tenant's, so no
// bearer token: register takes the operator's PATTERN_ADMIN_SECRET,
// reconcile a Standard Webhooks message signed with PATTERN_WEBHOOK_SECRET.
import type { ServerRoute } from '@hapi/hapi';
import { badRequest, Joi } from 'agent-platform/sdk';
import * as s from '../schemas.ts';
import type { RegistrationInput, RegistrationService } from '../services/registrations.ts';

const tags = ['api', 'patterns'];

export function registrationRoutes(registrations: RegistrationService): ServerRoute[] {
  return [
    {
      method: 'POST', path: '/api/v1/patterns/register',
      options: {
        auth: false, tags, plugins: { platform: { tenant: 'none' } },
        description: 'Register (or replace) a pattern preset: a code pattern with configuration defaults (X-Pattern-Admin-Secret: PATTERN_ADMIN_SECRET)',
        validate: { headers: Joi.object({ 'x-pattern-admin-secret': Joi.string().max(1000) }).unknown(true), payload: s.registration },
        response: { schema: s.registered },
      },
      handler: async (request, h) => h.response(await registrations.register(request.headers['x-pattern-admin-secret'] as string | undefined, request.payload as RegistrationInput)).code(201),
    },
    {
      method: 'POST', path: '/api/v1/patterns/reconcile',
      options: {
        auth: false, tags, plugins: { platform: { tenant: 'none' } },
        description: 'Make the registry-owned presets match a complete list: a Standard Webhooks message signed with PATTERN_WEBHOOK_SECRET, applied once',
        notes: [
          'Headers (Standard Webhooks): webhook-id (printable ASCII, at most 255 characters), webhook-timestamp (Unix seconds),',
          'webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with PATTERN_WEBHOOK_SECRET',
          '(its UTF-8 bytes; or the bytes a whsec_<base64> secret names)>, several space-separated allowed.',
          '401 PATTERN_SIGNATURE_INVALID: a header missing or no signature matching; 401 PATTERN_WEBHOOK_TIMESTAMP_INVALID: the timestamp more than 5 minutes from now;',
          '409 PATTERN_WEBHOOK_REPLAYED: a webhook-id accepted before (ids are kept while their timestamp is fresh, across processes).',
          'The list is applied all or nothing; a refused message changes nothing. 503 PATTERN_REGISTRY_DISABLED without PATTERN_WEBHOOK_SECRET.',
        ].join(' '),
        payload: { parse: false, output: 'data', maxBytes: 1024 * 1024 },
        response: { schema: s.reconciled },
      },
      handler: async (request) => {
        const body = (request.payload as Buffer | null) ?? Buffer.alloc(0);
        const header = (name: string) => {
          const value = request.headers[name];
          return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
        };
        const message = registrations.verify(header, body);
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          throw badRequest('The body is not JSON', 'VALIDATION_FAILED');
        }
        const { error, value } = s.reconcile.validate(parsed);
        if (error) throw badRequest(error.message, 'VALIDATION_FAILED');
        return registrations.reconcile(message, (value as { patterns: RegistrationInput[] }).patterns);
      },
    },
  ];
}

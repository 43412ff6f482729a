// The pattern registry routes (spec document 3, 4.2): not a tenant's, so no
// bearer token: register takes the operator's PATTERN_ADMIN_SECRET,
// reconcile a body signed with PATTERN_WEBHOOK_SECRET.
import type { ServerRoute } from '@hapi/hapi';
import { badRequest, Joi } from 'agent-platform/sdk';
import * as s from './schemas.ts';
import type { RegistrationInput, RegistrationService } from './service-registrations.ts';

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
        description: 'Make the registry-owned presets match a complete list (X-Pattern-Signature: sha256=<hex HMAC-SHA256 of the raw body with PATTERN_WEBHOOK_SECRET>)',
        payload: { parse: false, output: 'data', maxBytes: 1024 * 1024 },
        response: { schema: s.reconciled },
      },
      handler: async (request) => {
        const body = (request.payload as Buffer | null) ?? Buffer.alloc(0);
        const signature = request.headers['x-pattern-signature'];
        registrations.verify(typeof signature === 'string' ? signature : undefined, body);
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          throw badRequest('The body is not JSON', 'VALIDATION_FAILED');
        }
        const { error, value } = s.reconcile.validate(parsed);
        if (error) throw badRequest(error.message, 'VALIDATION_FAILED');
        return registrations.reconcile((value as { patterns: RegistrationInput[] }).patterns);
      },
    },
  ];
}

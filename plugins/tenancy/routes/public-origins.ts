// The tenant's public origins (admin): the web origins whose pages may call
// its public routes from a browser (CORS).
import type { ServerRoute } from '@hapi/hapi';
import { tenantOf } from 'agent-platform/sdk';
import type { PublicOriginsService } from '../services/public-origins.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const tags = ['api', 'tenancy'];

export function publicOriginRoutes(service: PublicOriginsService): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/admin/public-origins',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin },
        description: 'The tenant\'s public origins: web origins whose pages may call its public routes (occurrences, forms, Open311) from a browser',
        response: { schema: s.publicOrigins },
      },
      handler: (request) => service.get(tenantOf(request)),
    },
    {
      method: 'PUT', path: '/api/admin/public-origins',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin },
        description: 'Replace the tenant\'s public origins',
        notes: '400 INVALID_ORIGIN naming the first bad entry (a path, query, fragment, credentials, a wildcard, another scheme; a localhost origin unless EMBED_ALLOW_LOCALHOST_ORIGINS): nothing is changed. Stored normalized (lowercase host, default port dropped) without duplicates, sorted. Other processes see a change within 5 seconds.',
        validate: { payload: s.setPublicOrigins }, response: { schema: s.publicOrigins },
      },
      handler: (request) => service.set(tenantOf(request), (request.payload as { origins: string[] }).origins),
    },
  ];
}

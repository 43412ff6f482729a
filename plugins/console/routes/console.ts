// The console's API: its sign-in configuration, the exchange of a one-time
// sign-in link for an access token (public, rate limited per address before
// the body is read), and the tenant's usage this week.
import type { Lifecycle, ServerRoute, SharedRateLimiter } from 'agent-platform/sdk';
import { tenantOf } from 'agent-platform/sdk';
import type { LinksService } from '../services/links.ts';
import type { UsageService } from '../services/usage.ts';
import * as s from '../schemas.ts';

const tags = ['api', 'console'];

export interface ConsoleConfig {
  oidc: { issuer: string; client_id: string } | null;
  map: { tile_url: string };
}

export function consoleRoutes(links: LinksService, usage: UsageService, rateLimit: SharedRateLimiter, config: ConsoleConfig): ServerRoute[] {
  const spendToken: Lifecycle.Method = async (request, h) => {
    await rateLimit.take(request.info.remoteAddress || 'unknown');
    return h.continue;
  };
  return [
    {
      method: 'GET', path: '/api/console/config',
      options: {
        auth: false, tags, plugins: { platform: { tenant: 'none' } },
        description: 'How the console signs in (the OIDC issuer and client id when OIDC sign-in is configured) and the map tiles it draws',
        response: { schema: s.consoleConfig },
      },
      handler: () => config,
    },
    {
      method: 'POST', path: '/api/console/link/exchange',
      options: {
        auth: false, tags, plugins: { platform: { tenant: 'none' } },
        description: 'Exchange a one-time sign-in link\'s code (`platform console link`) for an access token',
        notes: 'Each code works once, for a few minutes (CONSOLE_LINK_TTL_SECONDS). A used, expired or unknown code: the same 401 `LINK_INVALID`. Rate limited per client address (CONSOLE_LINK_RATE_LIMIT_PER_MINUTE, 429 with `Retry-After`) before the body is read.',
        payload: { maxBytes: 4096, allow: ['application/json'] },
        ext: { onPreAuth: { method: spendToken } },
        validate: { payload: s.linkExchange }, response: { schema: s.issuedToken },
      },
      handler: async (request, h) =>
        h.response(await links.exchange((request.payload as { code: string }).code)).header('cache-control', 'no-store'),
    },
    {
      method: 'GET', path: '/api/admin/usage',
      options: {
        auth: 'bearer', tags, plugins: { platform: { tenant: 'required', role: ['admin', 'staff'] } },
        description: 'The tenant\'s usage this week: documents, chat sessions and occurrences created since Monday 00:00 UTC (admin or staff)',
        response: { schema: s.usage },
      },
      handler: (request) => usage.week(tenantOf(request)),
    },
  ];
}

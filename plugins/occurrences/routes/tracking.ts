// The public tracking page of a report, GET /track/{tenant}/{reference}: no
// login, rate limited as the other public routes (the address's token is
// spent before anything else), server-rendered HTML in English or
// Portuguese. An unknown tenant, an unknown reference and another tenant's
// reference get the same 404 page.
import Boom from '@hapi/boom';
import { Joi, type Request, type ResponseToolkit, type ServerRoute } from 'agent-platform/sdk';
import { chooseLang } from '../domain/tracking-locales.ts';
import { notFoundPage, TRACKING_HEADERS, trackingPage } from '../domain/tracking-page.ts';
import type { TrackingService } from '../services/tracking.ts';
import type { PublicTenant } from './public-caller.ts';

const NOT_A_TENANT = new Set(['TENANT_REQUIRED', 'TENANT_INVALID', 'TENANT_NOT_FOUND']);

function html(h: ResponseToolkit, body: string, status: number, lang: string) {
  const response = h.response(body).code(status).type('text/html; charset=utf-8').header('content-language', lang);
  for (const [name, value] of Object.entries(TRACKING_HEADERS)) response.header(name, value);
  return response;
}

export function trackingRoutes(tracking: TrackingService, publicTenant: PublicTenant): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/track/{tenant}/{reference}',
      options: {
        auth: false, tags: ['api', 'occurrences'],
        description: 'The public tracking page of a report (HTML): its public fields, state history and the messages sent to the reporter',
        notes: [
          'No login; rate limited per address (OCCURRENCES_PUBLIC_ADDRESS_RATE_LIMIT, then OCCURRENCES_PUBLIC_RATE_LIMIT per address and tenant): 429 RATE_LIMITED with Retry-After.',
          'English or Portuguese: ?lang=en|pt, else Accept-Language. No personal data of the reporter; staff names and notes are never shown.',
          'An unknown tenant, an unknown reference and another tenant\'s reference: the same 404 page.',
        ].join(' '),
        validate: {
          params: Joi.object({ tenant: Joi.string().max(200), reference: Joi.string().max(200) }),
          query: Joi.object({ lang: Joi.string().max(35).description('en or pt (others are ignored)') }),
        },
      },
      handler: async (request: Request, h: ResponseToolkit) => {
        const lang = chooseLang(request.query.lang, request.headers['accept-language']);
        const { tenant, reference } = request.params as { tenant: string; reference: string };
        let tenantId: string;
        try {
          tenantId = await publicTenant(request, tenant);
        } catch (error) {
          const code = Boom.isBoom(error) ? (error.output.payload as { code?: string }).code : undefined;
          if (code && NOT_A_TENANT.has(code)) return html(h, notFoundPage(lang), 404, lang);
          throw error;
        }
        const view = await tracking.find(tenantId, reference);
        return view ? html(h, trackingPage(view, lang), 200, lang) : html(h, notFoundPage(lang), 404, lang);
      },
    },
  ];
}

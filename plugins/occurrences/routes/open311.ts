// Open311 GeoReport v2 under /open311/v2/{tenant}/: discovery, services,
// service definitions, service requests (GET with the standard filters,
// POST) and one request. JSON only (the .json paths; no XML). Public: no
// login, the tenant in the path, rate limited like the other public routes.
// POST takes application/x-www-form-urlencoded (as Open311 clients send it,
// with attribute[code]=value) or JSON.
import type { Request, ServerRoute } from 'agent-platform/sdk';
import type { Open311Post, Open311Service, RequestsQuery } from '../services/open311.ts';
import { SPECIFICATION } from '../services/open311.ts';
import * as s from '../schemas.ts';
import type { PublicTenant } from './public-caller.ts';
import type {} from '../../tenancy/api.ts';

const tags = ['api', 'occurrences', 'open311'];
/** Open311 answers CORS for the public origins of the path's tenant (tenancy README). */
const plugins = { tenancy: { publicCors: 'path' } } as const;
const CORS = 'CORS for the public origins of the path\'s tenant (PUT /api/admin/public-origins); a browser\'s cross-origin request from another origin is 403 ORIGIN_NOT_ALLOWED.';
const base = '/open311/v2/{tenant}';
const ATTRIBUTE = /^attribute\[([A-Za-z_][A-Za-z0-9_]{0,63})\]$/;

/** A form post's attribute[code] keys folded into `attribute`. */
function postOf(payload: Record<string, unknown>): Open311Post {
  const attribute: Record<string, unknown> = { ...(payload.attribute as Record<string, unknown> | undefined) };
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) {
    const match = ATTRIBUTE.exec(key);
    if (match) attribute[match[1]] = value;
    else if (key !== 'attribute') rest[key] = value;
  }
  return { ...(rest as unknown as Open311Post), attribute };
}

export function open311Routes(open311: Open311Service, publicTenant: PublicTenant): ServerRoute[] {
  const tenant = (request: Request) => publicTenant(request, (request.params as { tenant: string }).tenant);
  return [
    {
      method: 'GET', path: `${base}/discovery.json`,
      options: {
        auth: false, tags, plugins, description: 'Open311 discovery: the GeoReport v2 endpoint of this tenant',
        notes: CORS,
        validate: { params: s.open311Tenant }, response: { schema: s.open311Discovery },
      },
      handler: async (request) => {
        const alias = await tenant(request);
        const url = `${request.server.info.protocol}://${request.info.host}/open311/v2/${alias}`;
        return {
          changeset: '2026-01-01T00:00:00Z', contact: 'The operator of this platform', key_service: 'No API key is needed',
          endpoints: [{ specification: SPECIFICATION, url, changeset: '2026-01-01T00:00:00Z', type: 'production', formats: ['application/json'] }],
        };
      },
    },
    {
      method: 'GET', path: `${base}/services.json`,
      options: {
        auth: false, tags, plugins, description: 'Open311 services: the tenant\'s active occurrence types',
        notes: CORS,
        validate: { params: s.open311Tenant, query: s.open311JurisdictionQuery }, response: { schema: s.open311Services },
      },
      handler: async (request) => open311.services(await tenant(request)),
    },
    {
      method: 'GET', path: `${base}/services/{code}.json`,
      options: {
        auth: false, tags, plugins, description: 'Open311 service definition: the type\'s dynamic fields as attributes',
        notes: CORS,
        validate: { params: s.open311Service, query: s.open311JurisdictionQuery }, response: { schema: s.open311Definition },
      },
      handler: async (request) => open311.definition(await tenant(request), (request.params as { code: string }).code),
    },
    {
      method: 'GET', path: `${base}/requests.json`,
      options: {
        auth: false, tags, plugins, description: 'Open311 service requests: public fields only, newest first (at most 1000; the last 90 days unless start_date is given)',
        notes: CORS,
        validate: { params: s.open311Tenant, query: s.open311RequestsQuery }, response: { schema: s.open311Requests },
      },
      handler: async (request) => open311.requests(await tenant(request), request.query as RequestsQuery),
    },
    {
      method: 'POST', path: `${base}/requests.json`,
      options: {
        auth: false, tags, plugins,
        description: 'Open311: create a service request (the public submission\'s path: validation, service area, duplicate policy)',
        notes: `Form-encoded or JSON. 404 SERVICE_NOT_FOUND; 422 VALIDATION_FAILED / OUTSIDE_SERVICE_AREA; 409 DUPLICATE_DETECTED (policy reject); 429 RATE_LIMITED. api_key, jurisdiction_id, address_id, device_id, account_id and media_url are accepted and ignored. ${CORS}`,
        payload: { allow: ['application/json', 'application/x-www-form-urlencoded'] },
        validate: { params: s.open311Tenant, payload: s.open311Post }, response: { schema: s.open311Created },
      },
      handler: async (request, h) => h.response(await open311.post(await tenant(request), postOf(request.payload as Record<string, unknown>))).code(201),
    },
    {
      method: 'GET', path: `${base}/requests/{id}.json`,
      options: {
        auth: false, tags, plugins, description: 'Open311: one service request by its service_request_id (the reference), as a one-item list',
        notes: CORS,
        validate: { params: s.open311Request, query: s.open311JurisdictionQuery }, response: { schema: s.open311Requests },
      },
      handler: async (request) => open311.request(await tenant(request), (request.params as { id: string }).id),
    },
  ];
}

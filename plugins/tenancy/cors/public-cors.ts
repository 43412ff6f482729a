// CORS of the tenants' public routes (a route declares it with
// `plugins.tenancy.publicCors`: the tenant from X-Tenant-ID, 'header', or
// from the path's {tenant}, 'path'), as server extensions: hapi's route-level
// `cors` cannot depend on a per-tenant allowlist. The rule
// (docs/decisions/tenancy-public-origins-cors.md):
//
// - A preflight (OPTIONS with Access-Control-Request-Method) carries no
//   X-Tenant-ID value. On a 'path' route the path's tenant decides; on a
//   'header' route the origin passes when some tenant allows it (which tenant
//   is not said). Passed: 204 with Access-Control-Allow-Origin (the origin),
//   the methods, the headers `content-type, x-tenant-id`, a max-age and
//   Vary: Origin. Otherwise 403 with Vary: Origin and no CORS header.
// - The request itself: its own tenant decides. From an origin the tenant
//   allows, the response (errors included) carries Access-Control-Allow-Origin
//   and Vary: Origin. A browser's cross-origin request (Sec-Fetch-Site
//   cross-site or same-site) from an origin the tenant does not allow is
//   refused 403 ORIGIN_NOT_ALLOWED before its body is read, so a preflight
//   passed for another tenant's origin changes nothing. Other requests
//   (no Origin, same-origin pages, servers) are answered as before, without
//   CORS headers.
import { forbidden, isValidTenantAlias, requestOrigin, type Request, type ResponseToolkit, type Server } from 'agent-platform/sdk';
import type { OriginDirectory } from '../services/origin-directory.ts';
import type { PublicCorsTenant } from '../api.ts';

const ALLOW_METHODS = 'GET, POST, OPTIONS';
const ALLOW_HEADERS = 'content-type, x-tenant-id';
const EXPOSE_HEADERS = 'retry-after';
const MAX_AGE_SECONDS = '600';

type RouteSettings = { path: string; settings: { plugins?: { tenancy?: { publicCors?: PublicCorsTenant } } } };

const modeOf = (route: RouteSettings | null | undefined) => route?.settings.plugins?.tenancy?.publicCors;

/** The route a preflight asks about; null for a path the router cannot decode. */
function routeOf(server: Server, method: string, path: string): RouteSettings | null {
  try {
    return server.match(method.toLowerCase() as 'get', path) as RouteSettings | null;
  } catch {
    return null;
  }
}

/** The tenant alias a request path holds where its route has `{tenant}`; null when none or malformed. */
function tenantInPath(routePath: string, path: string): string | null {
  const at = routePath.split('/').indexOf('{tenant}');
  const segment = at < 0 ? undefined : path.split('/')[at];
  if (segment === undefined) return null;
  try {
    const alias = decodeURIComponent(segment);
    return isValidTenantAlias(alias) ? alias : null;
  } catch {
    return null;
  }
}

/** The tenant a request names (its X-Tenant-ID or its path parameter); null when none or malformed. */
function tenantOfRequest(request: Request, mode: PublicCorsTenant): string | null {
  const alias = mode === 'path' ? (request.params as { tenant?: unknown }).tenant : request.headers['x-tenant-id'];
  return typeof alias === 'string' && isValidTenantAlias(alias) ? alias : null;
}

function addVary(headers: Record<string, string | string[] | number | undefined>) {
  const current = headers.vary;
  if (current === undefined || current === '') headers.vary = 'Origin';
  else if (!/(^|,)\s*origin\s*(,|$)/i.test(String(current))) headers.vary = `${current}, Origin`;
}

export function registerPublicCors(server: Server, directory: OriginDirectory, log: (error: unknown) => void): void {
  /** Fails closed: a directory that cannot be read allows nothing. */
  const safely = (question: Promise<boolean>) => question.catch((error: unknown) => {
    log(error);
    return false;
  });
  const allowedOrigins = new WeakMap<Request, string>();

  async function answerPreflight(request: Request, h: ResponseToolkit) {
    const origin = requestOrigin(request.headers.origin);
    const wanted = request.headers['access-control-request-method'];
    if (!origin || typeof wanted !== 'string') return h.continue;
    const route = routeOf(server, wanted, request.path);
    const mode = modeOf(route);
    if (!route || !mode) return h.continue;
    let allowed: boolean;
    if (mode === 'path') {
      const tenant = tenantInPath(route.path, request.path);
      allowed = tenant !== null && await safely(directory.allows(tenant, origin));
    } else {
      allowed = await safely(directory.anyAllows(origin));
    }
    if (!allowed) return h.response().code(403).header('vary', 'Origin').takeover();
    return h.response().code(204)
      .header('access-control-allow-origin', origin)
      .header('access-control-allow-methods', ALLOW_METHODS)
      .header('access-control-allow-headers', ALLOW_HEADERS)
      .header('access-control-max-age', MAX_AGE_SECONDS)
      .header('vary', 'Origin')
      .takeover();
  }
  // Synchronous for every other method: an async extension costs each request a promise.
  server.ext('onRequest', (request: Request, h: ResponseToolkit) => (request.method === 'options' ? answerPreflight(request, h) : h.continue));

  // Before authentication and the body: the route and its params are known.
  // Synchronous for a route without public CORS or a request without Origin (nearly all): no promise for them.
  server.ext('onPreAuth', (request: Request, h: ResponseToolkit) => {
    const mode = modeOf(request.route as unknown as RouteSettings);
    if (!mode || request.headers.origin === undefined) return h.continue;
    return checkOrigin(request, h, mode);
  });

  async function checkOrigin(request: Request, h: ResponseToolkit, mode: NonNullable<ReturnType<typeof modeOf>>) {
    const origin = requestOrigin(request.headers.origin);
    const tenant = tenantOfRequest(request, mode);
    if (origin && tenant !== null && await safely(directory.allows(tenant, origin))) {
      allowedOrigins.set(request, origin);
      return h.continue;
    }
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') throw forbidden('This origin is not one of the tenant\'s public origins', 'ORIGIN_NOT_ALLOWED');
    return h.continue;
  }

  server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
    if (!modeOf(request.route as unknown as RouteSettings)) return h.continue;
    const origin = allowedOrigins.get(request);
    const response = request.response as { isBoom?: boolean; output?: { headers: Record<string, string> }; header?: (k: string, v: string) => unknown; vary?: (header: string) => void };
    if (response.isBoom && response.output) {
      if (origin) Object.assign(response.output.headers, { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSE_HEADERS });
      addVary(response.output.headers);
    } else if (response.header) {
      if (origin) {
        response.header('access-control-allow-origin', origin);
        response.header('access-control-expose-headers', EXPOSE_HEADERS);
      }
      response.vary?.('origin');
    }
    return h.continue;
  });
}

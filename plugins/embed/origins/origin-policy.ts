// The embed rules on the end-user routes (those with plugins.platform.endUser:
// sessions, chat, cancel, feedback, citation status, uploads) and the CORS
// they need, as server extensions: hapi's route-level `cors` cannot depend on
// a per-client allowlist.
//
// - An embed token works only while its client is enabled, and (when minted
//   by an embed credential) while that credential is still the client's:
//   revoking it ends the tokens it minted (401 EMBED_TOKEN_REVOKED).
// - With `X-Platform-Embed: 1` (the widget's marker), or an embed token from
//   a browser (an Origin header), the client's origin policy applies: the
//   Origin must be allowlisted (403). A host token (a platform user token)
//   names its client with selected_client.
// - Responses to an allowlisted Origin carry Access-Control-Allow-Origin and
//   Vary: Origin (set on the raw response too: the SSE chat stream writes its
//   own head); preflights (OPTIONS) are answered here. A preflight names no
//   principal: when its URL names the client (selected_client, the manifest's
//   key) that client's allowlist decides, else any well-formed origin is
//   answered (it grants nothing: the request itself is checked as above, and
//   bearer tokens are never sent by a browser on its own).
import type { Request, ResponseToolkit, Server } from 'agent-platform/sdk';
import { badRequest, forbidden, requestOrigin, tenantOf, unauthorized, type Principal } from 'agent-platform/sdk';
import { enabledClient, requireAllowed } from '../access.ts';
import type { ClientCache, EmbedClient } from '../cache/client-cache.ts';

export const EMBED_MARKER = 'x-platform-embed';
const ALLOW_HEADERS = 'authorization, content-type, x-platform-embed, x-tenant-id, last-event-id, x-visitor-id';
const EXPOSE_HEADERS = 'retry-after, content-type';
export const MANIFEST_PATH = /^\/api\/embed\/manifest\/([^/]+)$/;
export const CLIENT_KEY = /^[A-Za-z0-9_-]{3,100}$/;

declare module '@hapi/hapi' {
  interface PluginSpecificConfiguration {
    /** A public embed route (the manifest) whose CORS this plugin answers. */
    embed?: { cors?: boolean };
  }
}

interface EmbedRequestState {
  /** The origin checked against the client's allowlist, to be sent back in Access-Control-Allow-Origin. */
  allowedOrigin?: string;
}

const stateOf = (request: Request) => ((request.plugins as Record<string, unknown>).embed ??= {}) as EmbedRequestState;

/** The client key of a manifest path (undefined for other paths, and for a key that is not valid percent-encoding). */
export function manifestKeyOf(path: string): string | undefined {
  const raw = MANIFEST_PATH.exec(path)?.[1];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** The route a preflight asks about; null for a path the router cannot decode (hapi answers it 400 itself). */
function routeOf(server: Server, method: string, path: string) {
  try {
    return server.match(method.toLowerCase() as 'get', path);
  } catch {
    return null;
  }
}

/** Routes the policy covers: the core's end-user routes and the embed plugin's public ones. */
function covered(settings: { plugins?: { platform?: { endUser?: boolean }; embed?: { cors?: boolean } } }): boolean {
  return settings.plugins?.platform?.endUser === true || settings.plugins?.embed?.cors === true;
}

/** The client a request names in `selected_client` (a key, or a numeric id). */
async function selectedClient(cache: ClientCache, value: unknown): Promise<EmbedClient | null | undefined> {
  if (value === undefined || value === '') return undefined;
  const text = String(value);
  if (/^\d{1,15}$/.test(text)) return cache.byId(Number(text));
  // Read before any validation (a preflight, /graphql): a value no client key can be names no client.
  return CLIENT_KEY.test(text) ? cache.byKey(text) : null;
}

export function registerOriginPolicy(server: Server, cache: ClientCache): void {
  async function answerPreflight(request: Request, h: ResponseToolkit) {
    const origin = requestOrigin(request.headers.origin);
    const wanted = request.headers['access-control-request-method'];
    if (!origin || typeof wanted !== 'string') return h.continue;
    const route = routeOf(server, wanted, request.path);
    if (!route || !covered(route.settings)) return h.continue;
    const key = manifestKeyOf(request.path);
    const client = key !== undefined ? (CLIENT_KEY.test(key) ? await cache.byKey(key) : null) : await selectedClient(cache, request.query.selected_client);
    if (client !== undefined && !(client?.enabled && client.allowedOrigins.has(origin))) {
      return h.response().code(403).header('vary', 'Origin').takeover();
    }
    return h.response().code(204)
      .header('access-control-allow-origin', origin)
      .header('access-control-allow-methods', 'GET, POST, PATCH, DELETE, OPTIONS')
      .header('access-control-allow-headers', ALLOW_HEADERS)
      .header('access-control-max-age', '600')
      .header('vary', 'Origin')
      .takeover();
  }
  // Synchronous for every other method: an async extension costs each request a promise.
  server.ext('onRequest', (request: Request, h: ResponseToolkit) => (request.method === 'options' ? answerPreflight(request, h) : h.continue));

  // After authentication and the tenant check: the principal and tenant are known.
  // Synchronous for the routes that are not end-user surfaces (nearly all): no promise for them.
  server.ext('onPreHandler', (request: Request, h: ResponseToolkit) => {
    if (request.route.settings.plugins?.platform?.endUser !== true) return h.continue;
    const principal = request.auth.credentials as unknown as Principal | undefined;
    if (!principal) return h.continue;
    return checkEmbedded(request, h, principal);
  });

  async function checkEmbedded(request: Request, h: ResponseToolkit, principal: Principal) {
    const marked = request.headers[EMBED_MARKER] === '1';
    let client: EmbedClient | null | undefined;
    if (principal.kind === 'embed') {
      client = await cache.byId(principal.clientId);
      if (!client || client.tenantId !== principal.tenantId || !client.enabled) throw forbidden('Embedding is disabled for this client', 'EMBED_DISABLED');
      if (principal.mintedBy !== undefined && principal.mintedBy !== client.serviceAccountSub) {
        throw unauthorized('The embed credential that minted this token was revoked', 'EMBED_TOKEN_REVOKED');
      }
      if (!marked && request.headers.origin === undefined) return h.continue;
    } else {
      if (!marked) return h.continue;
      client = await selectedClient(cache, request.query.selected_client);
      if (client === undefined) throw badRequest('selected_client is required with X-Platform-Embed', 'SELECTED_CLIENT_REQUIRED');
      if (client && client.tenantId !== tenantOf(request)) client = null;
      client = enabledClient(client, String(request.query.selected_client));
    }
    const origin = requestOrigin(request.headers.origin);
    if (!origin) throw forbidden('An allowlisted Origin is required for embedded requests', 'ORIGIN_NOT_ALLOWED');
    const allowed = requireAllowed(client, origin);
    stateOf(request).allowedOrigin = allowed;
    // Also on the socket's response: the chat stream writes its head itself (no onPreResponse).
    const raw = request.raw.res;
    raw.setHeader('access-control-allow-origin', allowed);
    raw.setHeader('access-control-expose-headers', EXPOSE_HEADERS);
    raw.setHeader('vary', 'Origin');
    return h.continue;
  }

  server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
    const origin = ((request.plugins as Record<string, unknown>).embed as EmbedRequestState | undefined)?.allowedOrigin;
    if (!origin) return h.continue;
    const response = request.response as { isBoom?: boolean; output?: { headers: Record<string, string> }; header?: (k: string, v: string) => unknown };
    const headers = { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSE_HEADERS };
    if (response.isBoom && response.output) {
      Object.assign(response.output.headers, headers);
      response.output.headers.vary = 'Origin';
    } else if (response.header) {
      for (const [name, value] of Object.entries(headers)) response.header(name, value);
      (response as unknown as { vary(header: string): void }).vary('origin');
    }
    return h.continue;
  });
}

// The manifest read is the first request of every page that embeds the chat,
// so it is answered before routing when it can be: a GET for a client the
// cache holds, enabled, from an allowlisted Origin gets the same response the
// route gives (same headers, same rate limit) without the route lifecycle
// (router, authentication, the text guard, validation, the tenant context),
// which costs more than the manifest itself. Anything else (a cache miss, an
// unknown key, a refused origin, a malformed request, the rate limit) continues
// to the route, which answers it, errors included. Logging and metrics still see the request.
import type { Request, ResponseToolkit, Server } from 'agent-platform/sdk';
import type { ManifestService } from '../services/manifest.ts';
import { CLIENT_KEY, manifestKeyOf } from './origin-policy.ts';

export function registerManifestFastPath(server: Server, manifests: ManifestService): void {
  // Synchronous for every other request: only a manifest read waits (for its rate-limit token).
  server.ext('onRequest', (request: Request, h: ResponseToolkit) => {
    if (request.method !== 'get') return h.continue;
    const key = manifestKeyOf(request.path);
    if (key === undefined || !CLIENT_KEY.test(key)) return h.continue;
    return manifests.readCached(request, key, request.headers.origin).then((found) => {
      if (!found) return h.continue;
      return h.response(found.manifest)
        .header('access-control-allow-origin', found.origin).header('vary', 'Origin').header('cache-control', 'no-cache')
        .takeover();
    }, () => h.continue); // Refused (the rate limit): the route answers this refusal, with its error headers.
  });
}

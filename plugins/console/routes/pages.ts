// The console's page and files: /console redirects to /console/; every path
// under it that is not an asset is answered with index.html (the console
// routes in the browser, so deep links work), revalidated each time, under a
// strict Content-Security-Policy; assets/ holds the hashed entry, chunks and
// stylesheet, immutable. Brotli to browsers that accept it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  assetResponse, IMMUTABLE_CACHE, notFound, REVALIDATE_CACHE, staticAssets, type Request, type ResponseToolkit, type ServerRoute,
} from 'agent-platform/sdk';
import * as s from '../schemas.ts';

export const CONSOLE_DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'app', 'dist');
const ASSET = /^assets\/[A-Za-z0-9_-]{1,100}\.(js|css)$/;
const PAGE = /^[a-z0-9-]{0,64}(\/[A-Za-z0-9_-]{1,128}){0,4}\/?$/;

/** The CSP source of a tile URL's host: `{s}.` (a tile server's subdomains) becomes `*.`. */
export function tileSource(tileUrl: string): string {
  const { protocol, host } = new URL(tileUrl.replace(/^(https?:\/\/)\{s\}\./, '$1s.'));
  return `${protocol}//${tileUrl.includes('//{s}.') ? `*.${host.slice(2)}` : host}`;
}

/**
 * The page's Content-Security-Policy: its own files only; the OIDC issuer's
 * origin may be fetched (discovery, token endpoint); images may come from
 * the map tiles' host.
 */
export function contentSecurityPolicy(oidcIssuerUrl: string | undefined, tileUrl?: string): string {
  const connect = ["'self'"];
  if (oidcIssuerUrl) connect.push(new URL(oidcIssuerUrl).origin);
  const img = ["'self'", 'data:'];
  if (tileUrl) img.push(tileSource(tileUrl));
  return [
    "default-src 'none'", "script-src 'self'", "style-src 'self'", `img-src ${img.join(' ')}`, "font-src 'self'",
    `connect-src ${connect.join(' ')}`, "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
  ].join('; ');
}

export function pageRoutes(oidcIssuerUrl: string | undefined, tileUrl?: string, dist = CONSOLE_DIST): ServerRoute[] {
  const load = staticAssets(dist);
  const csp = contentSecurityPolicy(oidcIssuerUrl, tileUrl);
  const tags = ['api', 'console'];
  const page = async (request: Request, h: ResponseToolkit) => {
    const index = await load('index.html');
    if (!index) throw notFound('The console is not built (node scripts/build-console.ts)', 'ASSET_NOT_FOUND');
    return assetResponse(request, h, 'index.html', index, REVALIDATE_CACHE)
      .header('content-security-policy', csp)
      .header('referrer-policy', 'no-referrer')
      .header('x-frame-options', 'DENY');
  };
  return [
    {
      method: 'GET', path: '/console',
      options: {
        auth: false, tags, plugins: { platform: { tenant: 'none' } },
        description: 'The console\'s page: /console redirects to /console/, which answers the page',
        validate: { query: s.callbackQuery },
      },
      // The router strips a trailing slash: the raw request tells /console from /console/.
      handler: (request: Request, h: ResponseToolkit) => {
        const raw = request.raw.req.url ?? '';
        if (/^\/console(\?|$)/.test(raw)) return h.redirect(`/console/${raw.slice('/console'.length)}`).code(302);
        return page(request, h);
      },
    },
    {
      method: 'GET', path: '/console/{path*}',
      options: {
        auth: false, tags, plugins: { platform: { tenant: 'none' } },
        description: 'The console: its page for any section path (the browser routes), its hashed files under assets/',
        notes: 'A section path (`/console/overview`, `/console/callback`) answers index.html, revalidated each time, with a strict Content-Security-Policy (no inline script, `frame-ancestors \'none\'`), `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer`; `assets/<name>-<hash>.js|css` are immutable. 404 for any other asset or before the console is built (`node scripts/build-console.ts`).',
        validate: { params: s.consoleFile, query: s.callbackQuery },
      },
      handler: async (request: Request, h: ResponseToolkit) => {
        const wanted = (request.params as { path?: string }).path ?? '';
        if (ASSET.test(wanted)) {
          const asset = await load(wanted);
          if (!asset) throw notFound(`No console asset ${wanted}`, 'ASSET_NOT_FOUND');
          return assetResponse(request, h, wanted, asset, IMMUTABLE_CACHE);
        }
        if (wanted.startsWith('assets/') || !PAGE.test(wanted)) throw notFound(`No console page ${wanted}`, 'ASSET_NOT_FOUND');
        return page(request, h);
      },
    },
  ];
}

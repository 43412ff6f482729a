// The interactive reference at /docs (also /docs/ui): Swagger UI from the
// swagger-ui-dist package, served from memory with the page's own
// initializer, loading /docs/openapi.json. Asset URLs carry the package's
// version, so they are cached for a year; the page itself is revalidated.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';

interface Asset { type: string; body: Buffer; gzip?: Buffer; etag: string }

const FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const INIT = `window.ui = SwaggerUIBundle({
  url: '/docs/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  validatorUrl: null,
});
`;

function etagOf(body: Buffer | string): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 27);
}

function asset(type: string, body: Buffer): Asset {
  return { type, body, etag: etagOf(body) };
}

/** The folder of swagger-ui-dist and its version. */
function swaggerUiDist(): { dir: string; version: string } {
  const manifest = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
  return { dir: path.dirname(manifest), version: JSON.parse(readFileSync(manifest, 'utf8')).version as string };
}

export function pageHtml(title: string, version: string): string {
  const v = `?v=${encodeURIComponent(version)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" type="image/png" sizes="32x32" href="/docs/ui/favicon-32x32.png${v}">
<link rel="icon" type="image/png" sizes="16x16" href="/docs/ui/favicon-16x16.png${v}">
<link rel="stylesheet" href="/docs/ui/swagger-ui.css${v}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/ui/swagger-ui-bundle.js${v}"></script>
<script src="/docs/ui/init.js${v}"></script>
</body>
</html>
`;
}

function send(request: Request, h: ResponseToolkit, item: Asset, cacheControl: string) {
  const wantsGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  if (wantsGzip && item.body.length > 1024) item.gzip ??= gzipSync(item.body);
  const response = h.response(wantsGzip && item.gzip ? item.gzip : item.body)
    .type(item.type).etag(item.etag, { vary: true, weak: false }).header('cache-control', cacheControl).header('x-content-type-options', 'nosniff');
  if (wantsGzip && item.gzip) response.compressed('gzip');
  return response;
}

export function uiRoutes(title: string): ServerRoute[] {
  const { dir, version } = swaggerUiDist();
  const assets = new Map<string, Asset>();
  for (const [file, type] of Object.entries(FILES)) assets.set(file, asset(type, readFileSync(path.join(dir, file))));
  assets.set('init.js', asset('text/javascript; charset=utf-8', Buffer.from(INIT)));
  const page = asset('text/html; charset=utf-8', Buffer.from(pageHtml(title, version)));
  const pageRoute = (routePath: string): ServerRoute => ({
    method: 'GET', path: routePath, options: { auth: false },
    handler: (request, h) => send(request, h, page, 'no-cache'),
  });
  return [
    pageRoute('/docs'),
    pageRoute('/docs/ui'),
    {
      method: 'GET', path: '/docs/ui/{file}', options: { auth: false },
      handler: (request, h) => {
        const item = assets.get(String(request.params.file));
        if (!item) return h.response({ statusCode: 404, error: 'Not Found', message: 'Not Found' }).code(404);
        return send(request, h, item, 'public, max-age=31536000, immutable');
      },
    },
  ];
}

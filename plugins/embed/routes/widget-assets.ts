// The widget's built files under /embed/v1/, from
// plugins/embed/widget/dist (built by scripts/build-widget.ts: `npm start`
// and `npm test` build it first). Entry files revalidate every time
// (no-cache, must-revalidate, with an ETag); hashed chunks are immutable for a
// year. `?v=<release>` is accepted on any asset (a cache key only). Any
// origin may load them (CORS `*`: public files, no credentials). A browser
// that accepts brotli gets the precompressed `.br` copy.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  assetResponse, IMMUTABLE_CACHE, Joi, notFound, REVALIDATE_CACHE, staticAssets, type Request, type ResponseToolkit, type ServerRoute,
} from 'agent-platform/sdk';

export const WIDGET_DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'widget', 'dist');
/** What may be asked for: an entry file or a hashed chunk; nothing else of the folder, no traversal. */
const ASSET_PATH = /^(platform-chat\.(ce|es|react|vue)\.js|platform-chat\.css|platform-report\.(ce|es)\.js|chunks\/[A-Za-z0-9_-]{1,64}\.js)$/;

export function widgetAssetRoutes(dist = WIDGET_DIST): ServerRoute[] {
  const load = staticAssets(dist);
  return [{
    method: 'GET', path: '/embed/v1/{file*}',
    options: {
      auth: false, tags: ['api', 'embed'], description: 'The chat widget\'s and the report element\'s files (entries revalidated, hashed chunks immutable)',
      notes: 'platform-chat.ce.js, platform-chat.es.js, platform-chat.react.js, platform-chat.vue.js, platform-chat.css, platform-report.ce.js, platform-report.es.js and chunks/<name>-<hash>.js; `v` is a cache-migration key. 404 for anything else or before the widget is built.',
      plugins: { platform: { tenant: 'none' } },
      validate: {
        params: Joi.object({ file: Joi.string().max(200).required().description('an entry file or chunks/<name>.js') }),
        query: Joi.object({ v: Joi.string().max(32).pattern(/^[0-9A-Za-z._-]+$/).description('release, e.g. 0.3.0') }),
      },
    },
    handler: async (request: Request, h: ResponseToolkit) => {
      const file = (request.params as { file: string }).file;
      if (!ASSET_PATH.test(file)) throw notFound(`No widget asset ${file}`, 'ASSET_NOT_FOUND');
      const asset = await load(file);
      if (!asset) throw notFound(`Widget asset ${file} not found (is the widget built? node scripts/build-widget.ts)`, 'ASSET_NOT_FOUND');
      // `*`, not the request's origin: public files, no credentials, one cache entry for every page.
      return assetResponse(request, h, file, asset, file.startsWith('chunks/') ? IMMUTABLE_CACHE : REVALIDATE_CACHE)
        .header('access-control-allow-origin', '*');
    },
  }];
}

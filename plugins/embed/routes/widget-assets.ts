// The widget's built files under /embed/v1/, from
// plugins/embed/widget/dist (built by scripts/build-widget.ts: `npm start`
// and `npm test` build it first). Entry files revalidate every time
// (no-cache, must-revalidate, with an ETag); hashed chunks are immutable for a
// year. `?v=<release>` is accepted on any asset (a cache key only). Any
// origin may load them (CORS `*`: public files, no credentials). A browser
// that accepts brotli gets the precompressed `.br` copy.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Joi, notFound, type Request, type ResponseToolkit, type ServerRoute } from 'agent-platform/sdk';

export const WIDGET_DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'widget', 'dist');
const CONTENT_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
/** What may be asked for: an entry file or a hashed chunk; nothing else of the folder, no traversal. */
const ASSET_PATH = /^(platform-chat\.(ce|es|react|vue)\.js|platform-chat\.css|platform-report\.(ce|es)\.js|chunks\/[A-Za-z0-9_-]{1,64}\.js)$/;
const ENTRY_CACHE = 'no-cache, must-revalidate';
const CHUNK_CACHE = 'public, max-age=31536000, immutable';

interface Asset { plain: Buffer; brotli: Buffer | null; etag: string }

export function widgetAssetRoutes(dist = WIDGET_DIST): ServerRoute[] {
  // Files are read once per process: a rebuild is a new release, served after a restart.
  const cache = new Map<string, Promise<Asset | null>>();
  const load = (file: string) => {
    let asset = cache.get(file);
    if (!asset) {
      asset = readAsset(path.join(dist, file));
      cache.set(file, asset);
      void asset.then((found) => { if (!found) cache.delete(file); });
    }
    return asset;
  };
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
      const brotli = asset.brotli && /\bbr\b/.test(String(request.headers['accept-encoding'] ?? ''));
      const response = h.response(brotli ? asset.brotli! : asset.plain)
        .type(CONTENT_TYPES[path.extname(file)]!)
        .etag(brotli ? `${asset.etag}-br` : asset.etag, { weak: false, vary: false })
        .header('cache-control', file.startsWith('chunks/') ? CHUNK_CACHE : ENTRY_CACHE)
        .header('x-content-type-options', 'nosniff')
        // `*`, not the request's origin: public files, no credentials, one cache entry for every page.
        .header('access-control-allow-origin', '*');
      if (brotli) response.header('content-encoding', 'br');
      return response.vary('accept-encoding');
    },
  }];
}

async function readAsset(file: string): Promise<Asset | null> {
  try {
    const plain = await readFile(file);
    const brotli = await readFile(`${file}.br`).catch(() => null);
    return { plain, brotli, etag: createHash('sha256').update(plain).digest('base64url').slice(0, 27) };
  } catch {
    return null;
  }
}

// Built files served from a folder (the chat widget's, the console's): each
// file read once per process with its precompressed `.br` copy and an ETag;
// a browser that accepts brotli gets the `.br` bytes. What may be asked for
// is the caller's rule (a pattern of paths, no traversal).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Request, ResponseObject, ResponseToolkit } from '@hapi/hapi';

export interface StaticAsset { plain: Buffer; brotli: Buffer | null; etag: string }

export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
export const REVALIDATE_CACHE = 'no-cache, must-revalidate';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};

/** The content type of a served file, by its extension. */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
}

/**
 * A loader of the files under `dist`: each is read once per process (a
 * rebuild is a new release, served after a restart); null when it is missing,
 * and a missing file is looked for again on the next request.
 */
export function staticAssets(dist: string): (file: string) => Promise<StaticAsset | null> {
  const cache = new Map<string, Promise<StaticAsset | null>>();
  return (file) => {
    let asset = cache.get(file);
    if (!asset) {
      asset = readAsset(path.join(dist, file));
      cache.set(file, asset);
      void asset.then((found) => { if (!found) cache.delete(file); });
    }
    return asset;
  };
}

/** The response of one asset: brotli when the request accepts it, its ETag, `cache-control`, nosniff, `Vary: accept-encoding`. */
export function assetResponse(request: Request, h: ResponseToolkit, file: string, asset: StaticAsset, cacheControl: string): ResponseObject {
  const brotli = asset.brotli !== null && /\bbr\b/.test(String(request.headers['accept-encoding'] ?? ''));
  const response = h.response(brotli ? asset.brotli! : asset.plain)
    .type(contentTypeOf(file))
    .etag(brotli ? `${asset.etag}-br` : asset.etag, { weak: false, vary: false })
    .header('cache-control', cacheControl)
    .header('x-content-type-options', 'nosniff');
  if (brotli) response.header('content-encoding', 'br');
  return response.vary('accept-encoding');
}

async function readAsset(file: string): Promise<StaticAsset | null> {
  try {
    const plain = await readFile(file);
    const brotli = await readFile(`${file}.br`).catch(() => null);
    return { plain, brotli, etag: createHash('sha256').update(plain).digest('base64url').slice(0, 27) };
  } catch {
    return null;
  }
}

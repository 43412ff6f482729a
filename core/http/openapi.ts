// The OpenAPI 3.1 document of every REST route tagged 'api', generated from
// the route table and the joi schemas (core/http/openapi/) once: when the
// server starts listening (onPostStart, before start() resolves: every plugin
// has registered its routes by then), or at the first request of a server
// that only initializes (tests that inject); served as the same bytes with
// an ETag at /docs/openapi.json; the interactive reference at /docs.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Server } from '@hapi/hapi';
import { buildDocument } from './openapi/document.ts';
import { pluginTable, type Tag } from './openapi/tags.ts';
import { uiRoutes } from './openapi/ui.ts';

const TITLE = 'Agent Platform API';

export interface OpenApiOptions {
  version: string;
  /** The README whose plugin table names, describes and orders the plugin tags. */
  readmePath: string;
}

interface Built { json: string; gzip: Buffer; etag: string; modified: Date; buildMs: number }

function readTags(readmePath: string): Tag[] {
  try {
    return pluginTable(readFileSync(readmePath, 'utf8'));
  } catch {
    return [];
  }
}

export function registerOpenApi(server: Server, options: OpenApiOptions): void {
  let built: Built | undefined;
  const build = (): Built => {
    if (built) return built;
    const started = performance.now();
    const document = buildDocument(server.table(), { title: TITLE, version: options.version, pluginTags: readTags(options.readmePath) });
    const json = JSON.stringify(document);
    const etag = createHash('sha256').update(json).digest('base64url').slice(0, 27);
    built = { json, gzip: gzipSync(json), etag, modified: new Date(), buildMs: performance.now() - started };
    server.app.openApiBuildMs = built.buildMs;
    return built;
  };
  server.ext('onPostStart', () => {
    build();
  });
  server.route({
    method: 'GET', path: '/docs/openapi.json', options: { auth: false },
    handler: (request, h) => {
      const document = build();
      const wantsGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
      const response = h.response(wantsGzip ? document.gzip : document.json)
        .type('application/json; charset=utf-8').etag(document.etag, { vary: true, weak: false }).header('last-modified', document.modified.toUTCString())
        .header('cache-control', 'public, no-cache');
      if (wantsGzip) response.compressed('gzip');
      return response;
    },
  });
  server.route(uiRoutes(TITLE));
}

declare module '@hapi/hapi' {
  interface ServerApplicationState {
    /** How long building the OpenAPI document took, in milliseconds (set once it is built). */
    openApiBuildMs?: number;
  }
}

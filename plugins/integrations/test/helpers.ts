// Shared by the integrations tests: a platform with the integrations manifest
// (tenancy, workflows, events, integrations), and a real HTTP server on
// loopback that serves OpenAPI documents and implements their operations,
// recording every request it receives as it arrived on the wire.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestPlatform, tenantWithAdmin, type Tap, type TestPlatform, type TestPlatformOptions } from 'agent-platform/sdk/testing';

export const MANIFEST = 'test/fixtures/manifests/integrations.yaml';

export function startIntegrationsPlatform(t: Tap, options: TestPlatformOptions = {}): Promise<TestPlatform> {
  return startTestPlatform(t, {
    ...options,
    env: { PLATFORM_MANIFEST: MANIFEST, INTEGRATIONS_ALLOW_PRIVATE_NETWORKS: 'true', ...options.env },
  });
}

/** A platform with a tenant and its admin's token. */
export async function integrationsFixture(t: Tap, options: TestPlatformOptions & { alias?: string } = {}) {
  const { alias = 'acme', ...platformOptions } = options;
  const tp = await startIntegrationsPlatform(t, platformOptions);
  const { token } = await tenantWithAdmin(tp, alias);
  return { tp, token, tenant: alias };
}

export interface Recorded {
  method: string;
  path: string;
  /** The raw query string (without `?`), to check serialization exactly. */
  search: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: unknown;
}

export type Route = (request: Recorded, response: http.ServerResponse) => boolean | void | Promise<boolean | void>;

export interface ApiServer {
  url: string;
  origin: string;
  requests: Recorded[];
  /** Serves a document (object as JSON, string as given) at a path. */
  serve(path: string, document: unknown, contentType?: string): void;
  /** Handles requests before the default echo; return true when handled. */
  route(handler: Route): void;
  /** Requests other than document downloads. */
  calls(): Recorded[];
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (!raw) return undefined;
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  if (contentType?.includes('x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
  return raw;
}

/**
 * The default answer echoes what arrived: {method, path, query, headers, body}
 * with status 200 (JSON).
 */
export async function startApiServer(t: Tap): Promise<ApiServer> {
  const documents = new Map<string, { body: string; contentType: string }>();
  const routes: Route[] = [];
  const requests: Recorded[] = [];
  const documentPaths = new Set<string>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://placeholder');
    const recorded: Recorded = {
      method: req.method ?? 'GET',
      path: url.pathname,
      search: url.search.replace(/^\?/, ''),
      query: url.searchParams,
      headers: req.headers,
      rawBody,
      body: parseBody(rawBody, req.headers['content-type']),
    };
    requests.push(recorded);
    const document = documents.get(url.pathname);
    if (document && req.method === 'GET') {
      res.writeHead(200, { 'content-type': document.contentType });
      res.end(document.body);
      return;
    }
    for (const route of routes) {
      if (await route(recorded, res)) return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: recorded.method, path: recorded.path, query: recorded.search, body: recorded.body ?? null }));
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    origin,
    requests,
    serve(path, document, contentType) {
      const body = typeof document === 'string' ? document : JSON.stringify(document);
      documents.set(path, { body, contentType: contentType ?? (typeof document === 'string' ? 'application/yaml' : 'application/json') });
      documentPaths.add(path);
    },
    route(handler) {
      routes.push(handler);
    },
    calls: () => requests.filter((r) => !documentPaths.has(r.path)),
  };
}

export async function importSpec(tp: TestPlatform, token: string, payload: Record<string, unknown>) {
  return tp.request({ method: 'POST', url: '/api/admin/integrations/openapi/import', token, payload });
}

/** Imports for real (dry_run false) and fails the test setup on anything but 201/200. */
export async function imported(tp: TestPlatform, token: string, payload: Record<string, unknown>) {
  const response = await importSpec(tp, token, { dry_run: false, ...payload });
  if (response.status !== 201 && response.status !== 200) throw new Error(`import: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function callFunction(tp: TestPlatform, token: string, name: string, args: Record<string, unknown> = {}) {
  return tp.request({ method: 'POST', url: `/api/admin/functions/${name}/call`, token, payload: { arguments: args } });
}

/** Recent events of the tenant's stream (newest first), as the events API lists them. */
export async function recentEvents(tp: TestPlatform, token: string, limit = 500) {
  const recent = await tp.request({ url: `/api/admin/triggers/events/recent?limit=${limit}`, token });
  if (recent.status !== 200) throw new Error(`events: ${JSON.stringify(recent.body)}`);
  return recent.body.items as { type: string; source: string; data: Record<string, any> }[];
}

export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

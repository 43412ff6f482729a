// Prometheus metrics: an HTTP latency histogram by route (latency-histogram.ts),
// and job counts by queue and state (read at scrape time).
import { createRequire } from 'node:module';
import type { Registry } from 'prom-client';
import type { Server, Request } from '@hapi/hapi';
import type { JobCount } from '../jobs/index.ts';
import { timingSafeEqual, createHash } from 'node:crypto';
import { unauthorized } from '../errors.ts';
import { LatencyHistogram } from './latency-histogram.ts';

/** Constant-time comparison of the presented bearer token with METRICS_TOKEN (hashed: equal lengths). */
function tokenMatches(header: unknown, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(typeof header === 'string' ? header : '');
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

/** Each server's registry, for plugins that add metrics (metricsRegistryOf). */
const registries = new WeakMap<object, Registry>();

/**
 * The registry /api/v1/metrics serves, for a plugin's own metrics (prom-client
 * collectors created with `registers: [metricsRegistryOf(server)]`).
 */
export function metricsRegistryOf(server: Server): Registry {
  const registry = registries.get(server.info);
  if (!registry) throw new Error('metrics are not registered on this server');
  return registry;
}

/** `metricsToken` (METRICS_TOKEN), when set, is the bearer token a scraper must send; unset keeps metrics open. */
export function registerMetrics(server: Server, jobCounts: () => Promise<JobCount[]>, metricsToken?: string): Registry {
  // prom-client (CommonJS) loads with the server's metrics: a CLI command registers none.
  const client = createRequire(import.meta.url)('prom-client') as typeof import('prom-client');
  const registry = new client.Registry();
  // server.info is the one object all plugin realms of a server share.
  registries.set(server.info, registry);
  client.collectDefaultMetrics({ register: registry });
  const latency = new LatencyHistogram('http_request_duration_seconds', 'HTTP request latency by method, route and status code',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
  registry.registerMetric(latency as never);
  new client.Gauge({
    name: 'platform_jobs',
    help: 'Background jobs by queue (task) and state',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const { queue, state, count } of await jobCounts()) this.set({ queue, state }, count);
    },
  });

  server.events.on('response', (request: Request) => {
    const info = request.info;
    const status = (request.response as { statusCode?: number } | null)?.statusCode ?? 0;
    const route = request.route?.path ?? 'unknown';
    latency.observe(request.method, route, status, ((info.responded || Date.now()) - info.received) / 1000);
  });

  server.route({
    method: 'GET',
    path: '/api/v1/metrics',
    options: { auth: false, description: 'Prometheus metrics (Bearer METRICS_TOKEN when configured)', tags: ['api', 'operations'] },
    handler: async (request, h) => {
      if (metricsToken && !tokenMatches(request.headers.authorization, metricsToken)) {
        throw unauthorized('Metrics need "Authorization: Bearer <METRICS_TOKEN>"', 'INVALID_TOKEN');
      }
      return h.response(await registry.metrics()).type(registry.contentType);
    },
  });
  return registry;
}

// The load generator of bench/webhooks.ts, run as a child process (like
// bench/lib/load.ts, so that its work does not share the server's event loop).
// Every request is a distinct, freshly signed signed-resume request: the body
// names one of the targets (round robin) and carries a sequence number, and
// X-Webhook-Id is unique, so the server does the full work on each one (no
// duplicate short-cuts). Signing happens here, for the baseline as well, so
// both targets see the same requests. Prints one JSON line of figures.
import autocannon from 'autocannon';
import { signedHeaders } from '../../plugins/webhooks/signing/signing.ts';
import type { LoadResult } from './load.ts';

export interface SignedTarget {
  tenant_id: string;
  workflow_id: string;
  secret: string;
}

export interface SignedLoadOptions {
  url: string;
  targets: SignedTarget[];
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

export interface SignedLoadResult extends LoadResult {
  /** 2xx answers over warm-up and measurement: what the server must have persisted. */
  accepted: number;
  /** Answers by status code, over warm-up and measurement. */
  statuses: Record<string, number>;
}

const options = JSON.parse(process.argv[2] ?? '{}') as SignedLoadOptions;
const prefix = `${process.pid}-${Date.now()}`;
let sequence = 0;
const statuses: Record<string, number> = {};

function signedRequest(request: autocannon.Request): autocannon.Request {
  const n = sequence++;
  const target = options.targets[n % options.targets.length];
  const body = JSON.stringify({ tenant_id: target.tenant_id, workflow_id: target.workflow_id, event_data: { n, source: 'bench' } });
  const headers = signedHeaders(target.secret, body, { id: `${prefix}-${n}` });
  return { ...request, method: 'POST', body, headers: { ...request.headers, ...headers } };
}

function run(duration: number, latencies?: number[]): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: options.url, connections: options.connections, duration, requests: [{ setupRequest: signedRequest }] },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      latencies?.push(responseTime);
    });
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const warmup = await run(options.warmupSeconds);
const latencies: number[] = [];
const result = await run(options.seconds, latencies);
latencies.sort((a, b) => a - b);
const figures: SignedLoadResult = {
  requests: result.requests.total,
  warmupRequests: warmup.requests.total,
  rps: result['2xx'] / (result.duration || options.seconds),
  p50: percentile(latencies, 50),
  p99: percentile(latencies, 99),
  errors: result.errors + result.timeouts,
  non2xx: result.non2xx,
  accepted: Object.entries(statuses).filter(([status]) => status.startsWith('2')).reduce((sum, [, count]) => sum + count, 0),
  statuses,
};
process.stdout.write(`${JSON.stringify(figures)}\n`);

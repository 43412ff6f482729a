// The load generator, run as a child process by bench/http.ts: it takes one
// JSON argument ({ url, headers, method?, body?, connections, warmupSeconds, seconds }), runs
// autocannon programmatically for a warm-up and then for the measured window,
// and prints the measured figures as one JSON line on stdout. Latencies are
// collected here from each response (autocannon's own histogram rounds to
// whole milliseconds, too coarse for a sub-millisecond baseline).
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  /** Default GET; a POST sends `body` on every request. */
  method?: 'GET' | 'POST';
  body?: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

export interface LoadResult {
  requests: number;
  /** Requests answered during the warm-up (not in the figures). */
  warmupRequests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

function run(options: LoadOptions, duration: number, latencies?: number[]): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    // Only when given: autocannon refuses an explicit `method: undefined` ("undefined HTTP method is not supported").
    const settings = {
      url: options.url, headers: options.headers, connections: options.connections, duration,
      ...(options.method ? { method: options.method, body: options.body } : {}),
    };
    const instance = autocannon(settings, (err, result) => (err ? reject(err) : resolve(result)));
    if (latencies) instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
const warmup = options.warmupSeconds > 0 ? await run(options, options.warmupSeconds) : undefined;
const latencies: number[] = [];
const result = await run(options, options.seconds, latencies);
latencies.sort((a, b) => a - b);
const figures: LoadResult = {
  requests: result.requests.total,
  warmupRequests: warmup?.requests.total ?? 0,
  rps: result.requests.total / (result.duration || options.seconds),
  p50: percentile(latencies, 50),
  p99: percentile(latencies, 99),
  errors: result.errors + result.timeouts,
  non2xx: result.non2xx,
};
process.stdout.write(`${JSON.stringify(figures)}\n`);

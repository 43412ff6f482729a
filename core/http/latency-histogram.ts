// The HTTP latency histogram (http_request_duration_seconds): one observation
// per response, so it is kept here as plain counts per series (method, route,
// status) and read by prom-client only when scraped, in its histogram format
// (`_bucket` with `le`, `_sum`, `_count`). prom-client's own Histogram
// validates and hashes the labels of every observation, which costs a cheap
// route several µs.

interface Series {
  labels: { method: string; route: string; status_code: string };
  /** Observations per bucket (not cumulative); the last is past the largest bound. */
  counts: number[];
  sum: number;
  count: number;
}

interface Value {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

export class LatencyHistogram {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly bounds: number[];
  private readonly series = new Map<string, Series>();

  constructor(name: string, help: string, bounds: number[]) {
    this.name = name;
    this.help = help;
    this.bounds = [...bounds].sort((a, b) => a - b);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${status} ${method} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      series = { labels: { method, route, status_code: String(status) }, counts: new Array(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]) bucket++;
    series.counts[bucket]++;
    series.sum += seconds;
    series.count++;
  }

  /** What prom-client's registry renders (a metric's `get`). */
  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Value[] }> {
    const values: Value[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += counts[i];
        values.push({ labels: { ...labels, le: bound }, value: cumulative, metricName: bucketName });
      });
      values.push({ labels: { ...labels, le: '+Inf' }, value: count, metricName: bucketName });
      values.push({ labels: { ...labels }, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...labels }, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.clear();
  }
}

// The HTTP latency histogram as prom-client's registry renders it: cumulative
// buckets per series, +Inf, _sum and _count, the histogram TYPE line.
import t from 'tap';
import { Registry } from 'prom-client';
import { LatencyHistogram } from '../../core/http/latency-histogram.ts';

t.test('observations render as a Prometheus histogram', async (t) => {
  const registry = new Registry();
  const histogram = new LatencyHistogram('http_request_duration_seconds', 'latency', [0.01, 0.1, 1]);
  registry.registerMetric(histogram as never);
  for (const seconds of [0.005, 0.01, 0.05, 2]) histogram.observe('get', '/a/{id}', 200, seconds);
  histogram.observe('post', '/a', 400, 0.2);
  const text = await registry.metrics();
  t.match(text, /# TYPE http_request_duration_seconds histogram/);
  const has = (line: string, message: string) => t.ok(text.split('\n').includes(line), `${message}: ${line}`);
  const get = 'method="get",route="/a/{id}",status_code="200"';
  has(`http_request_duration_seconds_bucket{${get},le="0.01"} 2`, 'at or under a bound counts in it (0.005 and 0.01)');
  has(`http_request_duration_seconds_bucket{${get},le="0.1"} 3`, 'cumulative');
  has(`http_request_duration_seconds_bucket{${get},le="1"} 3`, 'cumulative');
  has(`http_request_duration_seconds_bucket{${get},le="+Inf"} 4`, 'past the largest bound only in +Inf');
  has(`http_request_duration_seconds_sum{${get}} 2.065`, 'sum');
  has(`http_request_duration_seconds_count{${get}} 4`, 'count');
  has('http_request_duration_seconds_count{method="post",route="/a",status_code="400"} 1', 'a series per method, route and status');
  histogram.reset();
  t.notMatch(await registry.metrics(), /_count/, 'reset empties it');
});

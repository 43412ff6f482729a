// OpenTelemetry traces, end to end against a real OTLP/HTTP receiver on
// loopback: a request is a server span named by its route (continuing the
// caller's traceparent); an event emitted with a trigger is one trace from
// the emit through its dispatch to the workflow's step job; a log line
// written in a span carries its trace id; and without an endpoint (or with
// OTEL_SDK_DISABLED) nothing is exported and no SDK module is even loaded.
// Runs in its own process: OpenTelemetry's tracer provider is global to the process.
import t from 'tap';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { until } from 'agent-platform/sdk/testing';
import { readTelemetrySettings } from '../../core/telemetry/settings.ts';
import { createTrigger, dispatched, emit, eventsFixture, executionsOf } from '../../plugins/events/test/helpers.ts';
import { startOtlpReceiver, type ReceivedSpan } from '../fixtures/telemetry/otlp-receiver.ts';

const UNTRACED = fileURLToPath(new URL('../fixtures/telemetry/untraced-platform.ts', import.meta.url));
const SERVER = 2;

t.test('the standard variables: on with an endpoint, the spec\'s samplers, bad values ignored with a warning', async (t) => {
  t.equal(readTelemetrySettings({}).settings, undefined, 'no endpoint: off');
  t.equal(readTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'TRUE' }).settings, undefined, 'disabled');
  t.match(readTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' }).settings, {
    tracesUrl: 'http://c:4318/v1/traces', serviceName: 'agent-platform', sampler: 'parentbased_always_on', ratio: 1,
  });
  t.match(readTelemetrySettings({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:9/traces',
    OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs,team=a%2Cb', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25',
  }).settings, { tracesUrl: 'http://t:9/traces', serviceName: 'from-attrs', resourceAttributes: { team: 'a,b' }, sampler: 'parentbased_traceidratio', ratio: 0.25 });
  const bad = readTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_SERVICE_NAME: 'svc', OTEL_TRACES_SAMPLER: 'sometimes', OTEL_TRACES_SAMPLER_ARG: '2' });
  t.match(bad.settings, { serviceName: 'svc', sampler: 'parentbased_always_on', ratio: 1 });
  t.equal(bad.warnings.length, 1, 'the unknown sampler is reported (its argument is then not read)');
});

t.test('requests, an event through its trigger to the workflow\'s steps, and log lines are traced', async (t) => {
  const receiver = await startOtlpReceiver();
  t.teardown(() => receiver.close());
  const { tp, token } = await eventsFixture(t, {
    captureLogs: true,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'traced-platform', OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test' },
  });
  await createTrigger(tp, token, { name: 'orders', event_type: 'order.placed', target_name: 'record' });
  await dispatched(tp, token);

  const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
  const listed = await tp.request({ url: '/api/admin/triggers', token, headers: { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` } });
  t.equal(listed.status, 200);
  const emitted = await emit(tp, token, 'order.placed', { id: 'o-1' });
  await until(async () => (await executionsOf(tp, token, 'record')).some((e) => /completed/i.test(e.status)), 'the workflow to complete');
  await tp.stop();

  const spans = receiver.spans;
  const named = (name: string) => spans.filter((span) => span.name === name);
  const [listing] = named('GET /api/admin/triggers');
  t.ok(listing, 'the request is a span named by its route');
  t.match(listing, {
    kind: SERVER, traceId: callerTrace, parentSpanId: '00f067aa0ba902b7',
    attributes: { 'http.request.method': 'GET', 'http.route': '/api/admin/triggers', 'http.response.status_code': 200 },
    resource: { 'service.name': 'traced-platform', 'deployment.environment': 'test' },
  }, 'its status and method; the caller\'s traceparent continued; the resource');

  const emits = spans.filter((span) => span.name === 'event.emit' && span.attributes['event.type'] === 'order.placed');
  t.equal(emits.length, 1, 'the emit is a span');
  const trace = spans.filter((span) => span.traceId === emits[0].traceId);
  const names = new Set(trace.map((span) => span.name));
  for (const name of ['POST /api/admin/triggers/events/emit', 'event.emit', 'event.dispatch', 'job workflows.step', 'db.transaction']) {
    t.ok(names.has(name), `the event's trace holds ${name}`);
  }
  const byId = new Map(trace.map((span) => [span.spanId, span]));
  const roots = trace.filter((span) => !span.parentSpanId || !byId.has(span.parentSpanId));
  t.same(roots.map((span) => span.name), ['POST /api/admin/triggers/events/emit'], 'one tree, rooted at the request that emitted');
  const ancestors = (span: ReceivedSpan): string[] => {
    const parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
    return parent ? [parent.name, ...ancestors(parent)] : [];
  };
  const step = trace.find((span) => span.name === 'job workflows.step')!;
  t.ok(ancestors(step).includes('event.dispatch') && ancestors(step).includes('event.emit'), 'the step descends from the event\'s dispatch, which descends from the emit');
  t.ok(named('job events.dispatch').length > 0, 'dispatcher jobs are spans of their own (in the trace that woke them)');
  const statements = trace.filter((span) => span.attributes['db.system.name'] === 'postgresql');
  t.ok(statements.length > 0, 'statements are spans');
  t.notOk(statements.some((span) => String(span.attributes['db.query.text']).includes('o-1')), 'statement text without parameter values');
  t.equal(emitted.event.type, 'order.placed');

  const lines = tp.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
  const ofListing = lines.find((line) => line.trace_id === callerTrace);
  t.ok(ofListing, 'a log line written during the request carries its trace id');
  t.match(ofListing, { span_id: /^[0-9a-f]{16}$/ });
});

t.test('without an endpoint, or with OTEL_SDK_DISABLED, nothing is exported and no SDK module is loaded', async (t) => {
  const receiver = await startOtlpReceiver();
  t.teardown(() => receiver.close());
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
  for (const env of [base, { ...base, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SDK_DISABLED: 'true' }]) {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [UNTRACED], { env, timeout: 120_000 }, (err, out, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(out)));
    });
    const result = JSON.parse(stdout.trim().split('\n').pop()!);
    t.same(result.statuses, [200, 200]);
    t.same(result.loaded, ['@opentelemetry/api'], 'only the API is loaded');
    t.equal(result.traced, 0, 'no log line carries a trace id');
  }
  t.equal(receiver.requests, 0, 'nothing was exported');
});

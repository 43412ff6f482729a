// Starts the OpenTelemetry trace SDK: a tracer provider with the configured
// sampler and resource, batching spans to an OTLP/HTTP (JSON) exporter, the
// AsyncLocalStorage context manager and the W3C trace-context propagator,
// registered as the API's globals. The SDK's modules are imported here, on
// start only: a platform without an endpoint never loads them.
import { context, propagation, trace, type Context } from '@opentelemetry/api';
import { AsyncContextManager } from './context-manager.ts';
import type { TelemetrySettings } from './settings.ts';
import { setTracer } from './tracing.ts';

export const TRACER_NAME = 'agent-platform';

export interface Telemetry {
  /** Makes `ctx` current for the rest of the running task. */
  enter(ctx: Context): void;
  /** Exports the spans still buffered and unregisters the globals. */
  shutdown(): Promise<void>;
}

async function samplerOf(settings: TelemetrySettings) {
  const { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } = await import('@opentelemetry/sdk-trace');
  switch (settings.sampler) {
    case 'always_on': return new AlwaysOnSampler();
    case 'always_off': return new AlwaysOffSampler();
    case 'traceidratio': return new TraceIdRatioBasedSampler(settings.ratio);
    case 'parentbased_always_off': return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio': return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.ratio) });
    default: return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

export async function startTelemetry(settings: TelemetrySettings, version: string): Promise<Telemetry> {
  const [{ BatchSpanProcessor, TracerProvider }, { OTLPTraceExporter }, { defaultResource, resourceFromAttributes }, { W3CTraceContextPropagator }] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/core'),
  ]);
  const resource = defaultResource().merge(resourceFromAttributes({
    ...settings.resourceAttributes, 'service.name': settings.serviceName, 'service.version': version,
  }));
  const provider = new TracerProvider({
    resource,
    sampler: await samplerOf(settings),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: settings.tracesUrl }) })],
  });
  const contextManager = new AsyncContextManager();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  setTracer(provider.getTracer(TRACER_NAME, version));
  let stopped = false;
  return {
    enter: (ctx) => contextManager.enter(ctx),
    async shutdown() {
      if (stopped) return;
      stopped = true;
      setTracer(undefined);
      try {
        await provider.shutdown();
      } finally {
        trace.disable();
        propagation.disable();
        context.disable();
      }
    },
  };
}

// The OpenTelemetry settings, read from the standard OTEL_* variables: traces
// are exported when an OTLP endpoint is named and the SDK is not disabled.
// Values the specification says to ignore (an unknown sampler, a ratio out of
// range) fall back to the default, with a warning.

export const DEFAULT_SERVICE_NAME = 'agent-platform';

/** The README's rows of these settings (CORE_SETTINGS in config.ts lists them). */
export const TELEMETRY_SETTINGS: readonly { variable: string; default: string; description: string }[] = [
  { variable: 'OTEL_EXPORTER_OTLP_ENDPOINT', default: 'unset (no traces)',
    description: 'OTLP/HTTP collector base URL (`/v1/traces` is appended); setting it (or the next) turns tracing on. Spans are sent as OTLP/HTTP JSON (docs/operations.md, OpenTelemetry)' },
  { variable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', default: 'unset',
    description: 'Full OTLP/HTTP traces URL, used as is; wins over `OTEL_EXPORTER_OTLP_ENDPOINT`' },
  { variable: 'OTEL_SDK_DISABLED', default: '`false`',
    description: '`true`: no tracing even with an endpoint set' },
  { variable: 'OTEL_SERVICE_NAME', default: '`agent-platform`',
    description: 'The traces\' `service.name` (wins over one in `OTEL_RESOURCE_ATTRIBUTES`)' },
  { variable: 'OTEL_RESOURCE_ATTRIBUTES', default: 'unset',
    description: 'More resource attributes, `key=value` pairs separated by commas (percent-encoded)' },
  { variable: 'OTEL_TRACES_SAMPLER', default: '`parentbased_always_on`',
    description: '`always_on`, `always_off`, `traceidratio`, `parentbased_always_on`, `parentbased_always_off`, `parentbased_traceidratio`' },
  { variable: 'OTEL_TRACES_SAMPLER_ARG', default: '`1.0`',
    description: 'The ratio (0 to 1) of the `traceidratio` samplers' },
];

export type SamplerName = 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';
const SAMPLERS: readonly SamplerName[] = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

export interface TelemetrySettings {
  /** Where spans are posted (OTLP/HTTP). */
  tracesUrl: string;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  sampler: SamplerName;
  /** The ratio of the traceidratio samplers. */
  ratio: number;
}

export interface TelemetryReading {
  /** Undefined: tracing is off. */
  settings: TelemetrySettings | undefined;
  /** Values ignored, as the specification says, to be logged. */
  warnings: string[];
}

function value(env: Record<string, string | undefined>, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
}

/** `OTEL_EXPORTER_OTLP_ENDPOINT` is a base: the signal's path is appended to it. */
function tracesUrlOf(env: Record<string, string | undefined>): string | undefined {
  const traces = value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (traces) return traces;
  const base = value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  return base === undefined ? undefined : `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** OTEL_RESOURCE_ATTRIBUTES: `key=value` pairs separated by commas, both sides percent-encoded. */
export function parseResourceAttributes(raw: string | undefined, warnings: string[]): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    try {
      if (at <= 0) throw new Error('expected key=value');
      attributes[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch (err) {
      warnings.push(`OTEL_RESOURCE_ATTRIBUTES: "${pair}" ignored (${(err as Error).message})`);
    }
  }
  return attributes;
}

export function readTelemetrySettings(env: Record<string, string | undefined>): TelemetryReading {
  const warnings: string[] = [];
  const tracesUrl = tracesUrlOf(env);
  if (tracesUrl === undefined || value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return { settings: undefined, warnings };
  const protocol = value(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? value(env, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  if (protocol !== undefined && protocol !== 'http/json') warnings.push(`OTEL_EXPORTER_OTLP_PROTOCOL "${protocol}": spans are sent as http/json`);

  const resourceAttributes = parseResourceAttributes(value(env, 'OTEL_RESOURCE_ATTRIBUTES'), warnings);
  const serviceName = value(env, 'OTEL_SERVICE_NAME') ?? resourceAttributes['service.name'] ?? DEFAULT_SERVICE_NAME;

  let sampler: SamplerName = 'parentbased_always_on';
  const named = value(env, 'OTEL_TRACES_SAMPLER')?.toLowerCase();
  if (named !== undefined) {
    if ((SAMPLERS as readonly string[]).includes(named)) sampler = named as SamplerName;
    else warnings.push(`OTEL_TRACES_SAMPLER "${named}" is not supported: parentbased_always_on used`);
  }
  let ratio = 1;
  const arg = value(env, 'OTEL_TRACES_SAMPLER_ARG');
  if (arg !== undefined && sampler.endsWith('traceidratio')) {
    const parsed = Number(arg);
    if (Number.isFinite(parsed) && parsed >= 0 && parsed <= 1) ratio = parsed;
    else warnings.push(`OTEL_TRACES_SAMPLER_ARG "${arg}" is not a ratio between 0 and 1: 1.0 used`);
  }
  return { settings: { tracesUrl, serviceName, resourceAttributes, sampler, ratio }, warnings };
}

// pino with redaction: credentials never reach a log line, whether they come
// in a request header or in an object a plugin logs. A traced platform's
// lines carry the active span's `trace_id` and `span_id`.
import pino, { type Logger, type DestinationStream } from 'pino';
import { traceIdsMixin } from './telemetry/log-mixin.ts';

const SECRET_HEADERS = ['authorization', 'x-api-key', 'x-webhook-secret', 'x-webhook-signature', 'cookie', 'proxy-authorization'];
const SECRET_FIELDS = [
  'password', 'secret', 'client_secret', 'api_key', 'apiKey', 'key', 'token', 'access_token', 'refresh_token',
  'id_token', 'auth_value', 'credential', 'credentials', 'authorization', 'master_key', 'signing_secret',
];

export const redactPaths: string[] = [
  ...SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `request.headers["${h}"]`, `headers["${h}"]`]),
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
];

export function createLogger(level: string, destination?: DestinationStream, options: { traceIds?: boolean } = {}): Logger {
  return pino(
    {
      level,
      redact: { paths: redactPaths, censor: '[REDACTED]' },
      base: { service: 'agent-platform' },
      ...(options.traceIds ? { mixin: traceIdsMixin } : {}),
    },
    destination ?? pino.destination(1),
  );
}

// Request logging with no work on the request path: a completion line per
// request at info (from the `response` event, like the metrics), server and
// request `log` events, and `request.logger`, a child logger bound to the
// request that is only made when something logs through it. This replaces
// hapi-pino, which made that child (serializers, redaction: tens of µs) and
// ran a lifecycle extension on every request, logged or not: a third of the
// cost of a cheap route (bench/embed.ts).
import pino, { type Logger } from 'pino';
import type { Request, Server } from '@hapi/hapi';

declare module '@hapi/hapi' {
  interface Request {
    /** A child logger bound to this request (`req`, redacted like every log line). */
    logger: Logger;
  }
}

/** Paths polled by probes and scrapers: their completion is not logged. */
const UNLOGGED_PATHS = new Set(['/health', '/readyz', '/api/v1/metrics']);

/** The levels hapi `log` tags map to, most severe first. */
const TAG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** A logger that becomes `logger.child({ req: request })` on first use. */
function lazyRequestLogger(logger: Logger, request: Request): Logger {
  let child: Logger | undefined;
  const bound = () => (child ??= logger.child({ req: request }));
  return new Proxy(logger, {
    get(_target, key) {
      const value = Reflect.get(bound(), key);
      return typeof value === 'function' ? value.bind(child) : value;
    },
    // `request.logger.level = 'debug'` changes this request's logger, never the shared one behind the proxy.
    set: (_target, key, value) => Reflect.set(bound(), key, value),
  });
}

function levelOf(tags: string[]): (typeof TAG_LEVELS)[number] {
  return TAG_LEVELS.find((level) => tags.includes(level)) ?? 'info';
}

/** The client went away before the response was whole: hapi's answer is then its disconnect status (499). */
function abandonedByClient(request: Request): boolean {
  const response = request.response as { isBoom?: boolean; output?: { statusCode: number } } | null | symbol;
  return typeof response === 'object' && response?.isBoom === true && response.output?.statusCode === request.route.settings.response?.disconnectStatusCode;
}

export function registerRequestLogging(server: Server, logger: Logger): void {
  // What the completion line's `req` and `res` are: hapi's request and Node's response, as hapi-pino logged them.
  const serialized = logger.child({}, { serializers: { req: pino.stdSerializers.req, res: pino.stdSerializers.res } });
  server.decorate('request', 'logger', (request: Request) => lazyRequestLogger(serialized, request), { apply: true });

  if (logger.isLevelEnabled('info')) {
    server.events.on('response', (request: Request) => {
      if (UNLOGGED_PATHS.has(request.path)) return;
      const info = request.info;
      const responseTime = (info.completed || info.responded || Date.now()) - info.received;
      const res = request.raw.res;
      // A client that goes away is ordinary traffic: a debug line.
      if (abandonedByClient(request)) {
        serialized.debug({ req: request, responseTime }, `[aborted] ${request.method} ${request.path} (${responseTime}ms)`);
        return;
      }
      serialized.info({ req: request, res, responseTime }, `[response] ${request.method} ${request.path} ${res.headersSent ? res.statusCode : '-'} (${responseTime}ms)`);
    });
  }
  // Errors and `request.log()` calls; not the internal channel (hapi's lifecycle notes on every request).
  server.events.on({ name: 'request', channels: ['error', 'app'] }, (request: Request, event) => {
    if (event.channel === 'error' || event.error) {
      request.logger.error({ tags: event.tags, err: event.error }, event.error instanceof Error ? event.error.message : 'request error');
    } else {
      request.logger[levelOf(event.tags)]({ tags: event.tags, data: event.data }, 'request log');
    }
  });
  server.events.on('log', (event) => {
    const level = event.error ? 'error' : levelOf(event.tags);
    logger[level]({ tags: event.tags, ...(event.error ? { err: event.error } : { data: event.data }) }, 'server log');
  });
  server.ext('onPostStart', () => logger.info(server.info, 'server started'));
  server.ext('onPostStop', () => logger.info(server.info, 'server stopped'));
}

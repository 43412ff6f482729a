// GraphQL over WebSocket (graphql-ws, subprotocol graphql-transport-ws) on the
// server's own listener at /graphql: queries, mutations and subscriptions.
// Every operation goes through yoga's envelop (`getEnveloped`), so the schema,
// the limits of limits.ts and the error masking are those of HTTP.
//
// Authentication is the route's: the `connection_init` payload's
// `authorization` ("Bearer …") or `x-api-key`, else the upgrade request's
// headers of the same names, verified by the strategies' own code (no
// credentials: anonymous, which may still ask `viewer`); the tenant is the
// payload's `x-tenant-id`, else the upgrade's X-Tenant-ID header, checked as
// the route checks X-Tenant-ID (keys are matched case-insensitively). A
// refusal closes the socket: 4401 bad credentials, 4403 not allowed (a
// tenant the caller is not a member of), 4400/4404 a malformed or unknown
// tenant; the close reason carries the REST code and message.
//
// The credentials are checked again before each operation and every minute
// while the socket is open: an expired token, a revoked API key or a tenant
// left closes it with the same codes (a subscription does not outlive the
// caller's rights by more than a minute).
//
// Limits: a message is at most 1 MiB (the HTTP body cap); `connection_init`
// must come within 5 seconds; sockets are pinged every 12 seconds and dropped
// when they stop answering. On server stop every socket is closed (1001) and,
// after a second, cut.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Server } from '@hapi/hapi';
import type { ExecutionArgs } from 'graphql';
import { graphqlJs } from './graphql-js.ts';
import type { YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Principal } from '../auth/principal.ts';
import type { GraphqlContext } from './context.ts';

export const WEBSOCKET_LIMITS = {
  maxPayloadBytes: 1024 * 1024, connectionInitTimeoutMs: 5000, keepAliveMs: 12_000, closeGraceMs: 1000, recheckMs: 60_000,
};

export interface WebSocketAuth {
  /** The principal of these credentials as the route's strategies see them (undefined: none sent); throws their 401. */
  authenticate(credentials: { authorization?: string; apiKey?: string }): Promise<Principal | undefined>;
  /** The tenant the principal acts in, checked as the route checks X-Tenant-ID; throws the route's refusal. */
  tenant(principal: Principal, requested: string | undefined): Promise<string | undefined>;
}

interface Session {
  principal: Principal | undefined;
  tenantId: string | undefined;
  /** Checks the connection's credentials again; closes the socket (and resolves false) when they no longer hold. */
  recheck(): Promise<boolean>;
  timer: NodeJS.Timeout | undefined;
}

type Enveloped = Pick<ReturnType<YogaServerInstance<GraphqlContext, {}>['getEnveloped']>, 'execute' | 'subscribe'>;

const isGraphqlPath = (url: string | undefined) => /^\/graphql\/?(\?.*)?$/.test(url ?? '');

function lowerKeys(value: unknown): Record<string, unknown> {
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key.toLowerCase(), v]));
}

const text = (value: unknown) => (value === undefined || value === null || value === '' ? undefined : String(value));

/** What the connection presents: credentials from the payload when it has any, else from the upgrade's headers. */
export function presented(payload: unknown, request: IncomingMessage) {
  const params = lowerKeys(payload);
  const headers = request.headers;
  const fromParams = text(params.authorization) !== undefined || text(params['x-api-key']) !== undefined;
  return {
    authorization: text(fromParams ? params.authorization : headers.authorization),
    apiKey: text(fromParams ? params['x-api-key'] : headers['x-api-key']),
    tenant: text(params['x-tenant-id'] ?? headers['x-tenant-id']),
  };
}

/** A refusal as a close code and reason (a close reason holds at most 123 bytes). */
export function closeFor(err: unknown): { code: number; reason: string } | undefined {
  const boom = err as { isBoom?: boolean; message?: string; output?: { statusCode: number; payload: { code?: string } } };
  if (!boom?.isBoom || !boom.output || boom.output.statusCode >= 500) return undefined;
  const status = boom.output.statusCode;
  const code = status === 401 || status === 403 || status === 404 ? 4000 + status : 4400;
  let reason = boom.output.payload.code ? `${boom.output.payload.code}: ${boom.message}` : String(boom.message);
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return { code, reason };
}

function requestOf(upgrade: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(upgrade.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request('http://platform.local/graphql', { headers });
}

export function serveWebSocket(
  server: Server,
  yoga: () => Promise<YogaServerInstance<GraphqlContext, {}>>,
  auth: WebSocketAuth,
  logger: Logger,
): void {
  const listener = server.listener;
  let wss: WebSocketServer | undefined;
  let stopping = false;
  const sessions = new WeakMap<object, Session>();
  const enveloped = new WeakMap<object, Enveloped>();

  // Only a WebSocket upgrade of /graphql is taken off hapi; anything else is an ordinary request.
  // Node 24's option, settable after the server is made (its type is not in @types/node yet).
  (listener as typeof listener & { shouldUpgradeCallback: (request: IncomingMessage) => boolean }).shouldUpgradeCallback = (request) =>
    isGraphqlPath(request.url) && String(request.headers.upgrade ?? '').toLowerCase() === 'websocket';
  listener.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A client gone mid-handshake is ordinary traffic (as listener.ts treats broken connections).
    socket.on('error', () => socket.destroy());
    if (!wss || stopping) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const open = wss;
    open.handleUpgrade(request, socket, head, (ws) => open.emit('connection', ws, request));
  });

  server.ext('onPreStart', async () => {
    const [{ WebSocketServer: Wss }, { useServer }] = await Promise.all([import('ws'), import('graphql-ws/use/ws')]);
    wss = new Wss({ noServer: true, maxPayload: WEBSOCKET_LIMITS.maxPayloadBytes });
    stopping = false;
    useServer<Record<string, unknown> | undefined>({
      isProd: true,
      connectionInitWaitTimeout: WEBSOCKET_LIMITS.connectionInitTimeoutMs,
      async onConnect(ctx) {
        const { socket, request } = ctx.extra;
        const { tenant, ...credentials } = presented(ctx.connectionParams, request);
        const check = async () => {
          const principal = await auth.authenticate(credentials);
          return { principal, tenantId: principal ? await auth.tenant(principal, tenant) : undefined };
        };
        const refuse = (err: unknown) => {
          const close = closeFor(err);
          if (!close) logger.error({ err }, 'GraphQL WebSocket: connection check failed');
          else logger.debug({ code: close.code, reason: close.reason }, 'GraphQL WebSocket refused');
          // Closed here, with the reason; graphql-ws's own close that follows `false` is then a no-op.
          socket.close(close?.code ?? 4500, close?.reason ?? 'Internal server error');
        };
        try {
          const session: Session = {
            ...await check(),
            timer: undefined,
            async recheck() {
              try {
                await check();
                return true;
              } catch (err) {
                refuse(err);
                return false;
              }
            },
          };
          if (session.principal) {
            session.timer = setInterval(() => void session.recheck(), WEBSOCKET_LIMITS.recheckMs);
            session.timer.unref();
          }
          sessions.set(ctx, session);
          return true;
        } catch (err) {
          refuse(err);
          return false;
        }
      },
      onClose(ctx) {
        clearInterval(sessions.get(ctx)?.timer);
      },
      async onSubscribe(ctx, _id, payload) {
        const session = sessions.get(ctx);
        const { GraphQLError } = graphqlJs();
        if (!session) return [new GraphQLError('The connection is not initialised')];
        if (session.principal && !(await session.recheck())) return [new GraphQLError('The connection\'s credentials no longer hold')];
        const context: GraphqlContext = {
          principal: session.principal, tenantId: session.tenantId,
          // Per operation, as over HTTP (where it is yoga's request): what per-request caches are keyed on.
          request: requestOf(ctx.extra.request) as unknown as GraphqlContext['request'],
        };
        const { schema, parse, validate, execute, subscribe, contextFactory } = (await yoga()).getEnveloped(context);
        let document;
        try {
          document = parse(payload.query);
        } catch (err) {
          return [err instanceof GraphQLError ? err : new GraphQLError('The query document does not parse')];
        }
        const errors = validate(schema, document);
        if (errors.length > 0) return errors;
        const contextValue = await contextFactory();
        enveloped.set(contextValue, { execute, subscribe });
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue };
      },
      execute: (args: ExecutionArgs) => enveloped.get(args.contextValue as object)!.execute(args),
      subscribe: (args: ExecutionArgs) => enveloped.get(args.contextValue as object)!.subscribe(args),
    }, wss, WEBSOCKET_LIMITS.keepAliveMs);
  });

  server.ext('onPreStop', async () => {
    stopping = true;
    const open = wss;
    if (!open) return;
    const closed = [...open.clients].map((ws: WebSocket) => new Promise<void>((resolve) => {
      if (ws.readyState === ws.CLOSED) return resolve();
      ws.once('close', () => resolve());
      ws.close(1001, 'Server is shutting down');
    }));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(closed), new Promise((resolve) => (timer = setTimeout(resolve, WEBSOCKET_LIMITS.closeGraceMs)))]);
    clearTimeout(timer);
    for (const ws of open.clients) ws.terminate();
    open.close();
    wss = undefined;
  });
}

// The GraphQL facade: graphql-yoga at /graphql, its schema assembled from the
// SDL and resolvers that plugins contribute with `graphql.extend`. Same auth
// and tenant context as REST: the route authenticates (bearer or API key,
// optional) and checks the caller may act in the request's tenant; each
// resolver then applies the principals and roles of the REST route that owns
// the same data, through the guards of access.ts (requireMember, requireRole /
// requireAdmin, requireMemberOrApiKey). Before anything runs, limits.ts caps
// the document's size, and each operation's depth, aliases and cost (400).
import { PassThrough, Readable } from 'node:stream';
import type { YogaServerInstance } from 'graphql-yoga';
import { graphqlJs } from './graphql-js.ts';
import type { Server, Request, ResponseToolkit } from '@hapi/hapi';
import type { Logger } from 'pino';
import { optionalBearerOrApiKey, type Authenticator } from '../auth/index.ts';
import type { Principal } from '../auth/principal.ts';
import { tenantForPrincipal, type RouteAccess } from '../auth/tenant-context.ts';
import { BASE_TYPE_DEFS, baseResolvers } from './base-schema.ts';
import type { GraphqlContext } from './context.ts';
import { DEFAULT_GRAPHQL_LIMITS, useQueryLimits, type GraphqlLimits } from './limits.ts';
import { GRAPHIQL_OPTIONS, renderGraphiql } from './graphiql.ts';
import { useClearAnswers } from './http-answers.ts';
import { serveWebSocket } from './websocket.ts';

export type { GraphqlContext };

type Resolvers = Record<string, any>;

/**
 * Who may call /graphql, over HTTP and WebSocket: anyone (the fields guard
 * themselves), a tenant optional; embed tokens may ask (viewer says who it
 * is), and every field guard of access.ts refuses them tenant data.
 */
const ROUTE_ACCESS: RouteAccess = { tenant: 'optional', endUser: true };

/** What the route needs of the server: the auth strategies' verifier, the tenant directory, a logger. */
export interface GraphqlRouteDeps {
  authenticator: Authenticator;
  tenantExists: (id: string) => Promise<boolean>;
  logger: Logger;
}

export interface GraphqlOptions {
  /** GraphiQL for browsers at GET /graphql (GRAPHQL_GRAPHIQL). */
  graphiql: boolean;
}

export class GraphqlFacade {
  private readonly typeDefs: string[] = [BASE_TYPE_DEFS];
  private readonly resolvers: Resolvers[] = [];
  private yoga: YogaServerInstance<GraphqlContext, {}> | undefined;
  private building: Promise<void> | undefined;
  private readonly limits: GraphqlLimits;
  private readonly options: GraphqlOptions;

  constructor(limits: GraphqlLimits = DEFAULT_GRAPHQL_LIMITS, options: GraphqlOptions = { graphiql: true }) {
    this.limits = limits;
    this.options = options;
  }

  extend(part: { typeDefs: string; resolvers?: Resolvers }): void {
    if (this.building) throw new Error('the GraphQL schema is already built');
    this.typeDefs.push(part.typeDefs);
    if (part.resolvers) this.resolvers.push(part.resolvers);
  }

  /**
   * Builds the schema from every extension, once: when the server starts
   * listening, or at the first GraphQL request of a server that was only
   * initialized. graphql-yoga is loaded only then: a CLI command never needs it.
   */
  build(): Promise<void> {
    this.building ??= this.create();
    return this.building;
  }

  private async create(): Promise<void> {
    const { createSchema, createYoga } = await import('graphql-yoga');
    this.yoga = createYoga<GraphqlContext>({
      schema: createSchema<GraphqlContext>({ typeDefs: this.typeDefs, resolvers: mergeResolvers([baseResolvers(), ...this.resolvers]) }),
      graphqlEndpoint: '/graphql',
      graphiql: this.options.graphiql ? GRAPHIQL_OPTIONS : false,
      renderGraphiQL: () => renderGraphiql(),
      landingPage: false,
      maskedErrors: { maskError: maskUnexpected },
      logging: false,
      plugins: [useQueryLimits(this.limits), useClearAnswers({ graphiql: this.options.graphiql, maxTokens: this.limits.maxTokens })],
    });
  }

  private async built(): Promise<YogaServerInstance<GraphqlContext, {}>> {
    if (!this.yoga) await this.build();
    return this.yoga!;
  }

  registerRoute(server: Server, deps: GraphqlRouteDeps): void {
    const shared = {
      auth: { strategies: ['bearer', 'api-key'], mode: 'optional' as const },
      plugins: { platform: ROUTE_ACCESS },
      description: 'GraphQL facade: GET and POST, subscriptions over SSE (Accept: text/event-stream) or WebSocket '
        + '(graphql-transport-ws); GraphiQL for browsers. See docs/graphql.md and the schema by introspection',
    };
    const handler = (request: Request, h: ResponseToolkit) => this.handle(request, h);
    server.route([
      { method: 'GET', path: '/graphql', options: shared, handler },
      {
        method: 'POST',
        path: '/graphql',
        options: { ...shared, payload: { parse: false, output: 'data', maxBytes: 1024 * 1024 } },
        handler,
      },
    ]);
    serveWebSocket(server, () => this.built(), {
      authenticate: (credentials) => optionalBearerOrApiKey(deps.authenticator, credentials),
      tenant: (principal, requested) => tenantForPrincipal(principal, requested, ROUTE_ACCESS, {
        tenantExists: deps.tenantExists, warn: (fields, message) => deps.logger.warn(fields, message),
      }),
    }, deps.logger);
  }

  private async handle(request: Request, h: ResponseToolkit) {
    const yoga = await this.built();
    const url = new URL(request.url.pathname + request.url.search, 'http://platform.local');
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) headers.set(name, String(value));
    const payload = request.payload as Buffer | undefined;
    const body = request.method === 'get' || !payload ? undefined : new Uint8Array(payload);
    const response = await yoga.fetch(new globalThis.Request(url, { method: request.method.toUpperCase(), headers, body }), {
      principal: request.auth.isAuthenticated ? (request.auth.credentials as unknown as Principal) : undefined,
      tenantId: request.app.tenantId,
      request,
    });
    // Subscriptions over SSE: relay the event stream as it comes instead of
    // waiting for its end; closing the connection ends the subscription.
    const streamed = response.body && (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    const reply = h.response(streamed ? eventStream(response.body!, request) : await response.text()).code(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') reply.header(name, value);
    });
    return reply;
  }
}

/**
 * A Node stream of an SSE body for hapi. hapi compresses text/event-stream
 * like any text; it hands a stream that has `setCompressor` its compressor,
 * which is flushed after each event so that events are not held in its buffer.
 */
function eventStream(body: ReadableStream<Uint8Array>, request: Request): Readable {
  // Read through the stream's reader: yoga's body is a ponyfilled ReadableStream,
  // which Readable.fromWeb rejects.
  const reader = body.getReader();
  const source = Readable.from((async function* chunks() {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        yield Buffer.from(value);
      }
    } finally {
      void reader.cancel().catch(() => {});
    }
  })(), { objectMode: false });
  let compressor: { flush(): void } | undefined;
  const out = new PassThrough({
    transform(chunk, _encoding, done) {
      done(null, chunk);
      if (compressor) setImmediate(() => compressor?.flush());
    },
  }) as PassThrough & { setCompressor?: (c: { flush(): void }) => void };
  out.setCompressor = (c) => {
    compressor = c;
  };
  source.pipe(out);
  const stop = () => {
    source.destroy();
    out.destroy();
  };
  // The response's close (not the request's, which fires once its body is read).
  request.raw.res.once('close', stop);
  return out;
}

function mergeResolvers(parts: Resolvers[]): Resolvers {
  const merged: Resolvers = {};
  for (const part of parts) {
    for (const [type, fields] of Object.entries(part)) merged[type] = { ...merged[type], ...fields };
  }
  return merged;
}

/** Domain errors (Boom) keep their message and code; anything unexpected is masked. */
function maskUnexpected(error: unknown, message: string): Error {
  const { GraphQLError } = graphqlJs();
  const original = (error as { originalError?: unknown }).originalError ?? error;
  // The located error (the one graphql-js wraps a resolver's error in) carries
  // the field's path and locations; keep them.
  const located = error instanceof GraphQLError ? error : undefined;
  if (original instanceof GraphQLError) return located ?? original;
  const boom = original as { isBoom?: boolean; output?: { statusCode: number; payload: { message: string; code?: string } } };
  if (boom?.isBoom && boom.output && boom.output.statusCode < 500) {
    return new GraphQLError(boom.output.payload.message, {
      nodes: located?.nodes, source: located?.source, positions: located?.positions, path: located?.path,
      extensions: { code: boom.output.payload.code ?? 'BAD_REQUEST', statusCode: boom.output.statusCode },
    });
  }
  if (error instanceof GraphQLError && !(error.originalError)) return error;
  return new GraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

// Clear answers over HTTP where yoga would leave a client waiting or guessing
// (a yoga plugin):
//   - a subscription is a stream: over HTTP only Server-Sent Events carry it
//     (the route relays text/event-stream as it comes). A subscription whose
//     request does not accept `text/event-stream` is a 406 with a GraphQL
//     error body naming the two transports, and nothing is subscribed;
//   - GET /graphql without a `query` parameter is a 400 saying what to send,
//     unless GraphiQL answers it (a browser, Accept: text/html, with
//     GRAPHQL_GRAPHIQL on).
import type { ExecutionResult } from 'graphql';
import { graphqlJs } from './graphql-js.ts';
import type { Plugin } from 'graphql-yoga';

export const SUBSCRIPTION_TRANSPORT_REQUIRED = 'SUBSCRIPTION_TRANSPORT_REQUIRED';

const STREAM_REQUIRED = 'A subscription is a stream of events: send it with `Accept: text/event-stream` (Server-Sent Events), '
  + 'or over the WebSocket at /graphql (subprotocol graphql-transport-ws)';

const QUERY_REQUIRED = 'GET /graphql needs a `query` parameter (GET /graphql?query={viewer{kind}}), '
  + 'or POST /graphql with a JSON body {"query": "…"}';

function errorResponse(fetchAPI: { Response: typeof Response }, status: number, message: string, code: string): Response {
  return new fetchAPI.Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
    status, headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

const acceptsEventStream = (request: Request) => (request.headers.get('accept') ?? '').toLowerCase().includes('text/event-stream');

/** Whether the operation a request selects is a subscription (a document that does not parse is left to yoga's own answer). */
function isSubscription(query: string, operationName: string | undefined, maxTokens: number): boolean {
  if (!/\bsubscription\b/.test(query)) return false;
  try {
    const { getOperationAST, parse } = graphqlJs();
    return getOperationAST(parse(query, { maxTokens }), operationName)?.operation === 'subscription';
  } catch {
    return false;
  }
}

export function useClearAnswers(options: { graphiql: boolean; maxTokens: number }): Plugin {
  const refused = new WeakSet<object>();
  return {
    onRequest({ request, url, fetchAPI, endResponse }) {
      if (request.method !== 'GET' || url.searchParams.has('query')) return;
      // GraphiQL's own plugin runs first and answers the browsers it serves.
      if (options.graphiql && (request.headers.get('accept') ?? '').includes('text/html')) return;
      endResponse(errorResponse(fetchAPI, 400, QUERY_REQUIRED, 'QUERY_REQUIRED'));
    },
    onParams({ params, request, setResult }) {
      if (typeof params.query !== 'string' || acceptsEventStream(request)) return;
      if (!isSubscription(params.query, params.operationName, options.maxTokens)) return;
      const result: ExecutionResult = {
        errors: [new (graphqlJs().GraphQLError)(STREAM_REQUIRED, { extensions: { code: SUBSCRIPTION_TRANSPORT_REQUIRED } })],
      };
      refused.add(result);
      setResult(result);
    },
    onResultProcess({ result, setResultProcessor }) {
      if (!refused.has(result as object)) return;
      // Whatever the Accept header (even one yoga has no processor for): JSON.
      setResultProcessor((_result, fetchAPI) => errorResponse(fetchAPI, 406, STREAM_REQUIRED, SUBSCRIPTION_TRANSPORT_REQUIRED), 'application/json');
    },
  };
}

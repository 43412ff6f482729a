// GraphiQL at GET /graphql for a browser (Accept: text/html), switched by
// GRAPHQL_GRAPHIQL (default true; off, a browser gets the 400 every GET
// without a query gets). The page is @graphql-yoga/render-graphiql's: one
// self-contained document (its script, styles, editor workers and favicon
// inline), so nothing is fetched from a CDN and the page needs no other route.
// Its requests go to the same /graphql with the headers typed in its header
// editor (Authorization, X-Tenant-ID); subscriptions run over SSE.
import type { GraphiQLOptions } from 'graphql-yoga';
import { ConfigError } from '../config.ts';

export function graphiqlEnabledFrom(env: Record<string, string | undefined>): boolean {
  const raw = env.GRAPHQL_GRAPHIQL?.trim().toLowerCase();
  if (raw === undefined || raw === '') return true;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`GRAPHQL_GRAPHIQL must be true or false, got "${env.GRAPHQL_GRAPHIQL}"`);
}

export const GRAPHIQL_OPTIONS: GraphiQLOptions = {
  title: 'Agent platform GraphQL',
  defaultQuery: '# Send Authorization (Bearer …) and X-Tenant-ID in the headers below.\n{\n  viewer {\n    kind\n    sub\n    tenantId\n  }\n}\n',
  subscriptionsProtocol: 'SSE',
  defaultEditorToolsVisibility: 'headers',
};

let page: Promise<string> | undefined;

/**
 * The page, rendered once per process: the renderer's module (about 9 MB of
 * inlined script) is loaded only when a browser first asks.
 */
export function renderGraphiql(): Promise<string> {
  page ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => renderGraphiQL(GRAPHIQL_OPTIONS));
  return page;
}

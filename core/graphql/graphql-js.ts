// graphql-js, loaded on first use: the core's GraphQL modules are part of the
// SDK every plugin imports, and a process that builds no schema and answers no
// query (a CLI command) need not load the library. The package is CommonJS
// (its `main`): this require returns the one instance graphql-yoga and the
// plugins' `import … from 'graphql'` load, so its classes and `instanceof`
// checks are shared.
import { createRequire } from 'node:module';

type GraphqlJs = typeof import('graphql');

const require = createRequire(import.meta.url);
let loaded: GraphqlJs | undefined;

/** The graphql module, loaded by the first call. */
export function graphqlJs(): GraphqlJs {
  return (loaded ??= require('graphql') as GraphqlJs);
}

/** One of graphql's functions, with its own type, loading the module when it is first called. */
export function lazyGraphql<K extends keyof GraphqlJs>(name: K): GraphqlJs[K] {
  return ((...args: unknown[]) => (graphqlJs()[name] as (...args: unknown[]) => unknown)(...args)) as GraphqlJs[K];
}

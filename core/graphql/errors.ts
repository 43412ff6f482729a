// The GraphQL error of a malformed argument: code BAD_USER_INPUT, the message
// naming what is wrong. A resolver throws it before anything is read.
import type { GraphQLError } from 'graphql';
import { graphqlJs } from './graphql-js.ts';

/** A GraphQLError with extensions.code BAD_USER_INPUT. */
export function badInput(message: string): GraphQLError {
  return new (graphqlJs().GraphQLError)(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

// The GraphQL error of a malformed argument: code BAD_USER_INPUT, the message
// naming what is wrong. A resolver throws it before anything is read.
import { GraphQLError } from 'graphql';

/** A GraphQLError with extensions.code BAD_USER_INPUT. */
export function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

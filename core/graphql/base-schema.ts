// Types every plugin's SDL may use: scalars, Relay page info, a viewer field.
import { graphqlJs } from './graphql-js.ts';
import type { GraphqlContext } from './context.ts';

export const BASE_TYPE_DEFS = /* GraphQL */ `
  scalar DateTime
  scalar JSON

  type PageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  "Who is calling: the principal the request authenticated as."
  type Viewer {
    "The kind of principal: user, super_admin, service, api_key or embed."
    kind: String!
    "The principal's subject: a token's sub claim; super-admin for the super-admin token."
    sub: String!
    "The tenant the call acts in (X-Tenant-ID, or the caller's only tenant); null when none."
    tenantId: ID
  }

  type Query {
    "The authenticated caller, or null."
    viewer: Viewer
  }
`;

/** The resolvers of BASE_TYPE_DEFS, made when the first schema is built. */
export function baseResolvers() {
  const { GraphQLScalarType, Kind } = graphqlJs();
  return {
  DateTime: new GraphQLScalarType({
    name: 'DateTime',
    serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
    parseValue: (value) => new Date(String(value)),
    parseLiteral: (ast) => (ast.kind === Kind.STRING ? new Date(ast.value) : null),
  }),
  JSON: new GraphQLScalarType({ name: 'JSON', serialize: (value) => value, parseValue: (value) => value }),
  Query: {
    viewer: (_: unknown, __: unknown, context: GraphqlContext) =>
      context.principal ? { kind: context.principal.kind, sub: context.principal.sub, tenantId: context.tenantId } : null,
  },
  };
}

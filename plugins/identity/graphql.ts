// GraphQL: identity policies (with their versions), the tenant's schema
// registry and the built-in libraries, as Relay connections where they are
// lists. Access as the REST routes: a bearer member of the tenant reads; API
// keys get FORBIDDEN. (Users need admin or pipeline_editor over REST and are
// left out here.)
import { badInput, type ConnectionArgs, decodeCursor, type GraphqlContext, isUuid, pageSize, requireMember, toConnection } from 'agent-platform/sdk';
import type { LibraryService } from './services/libraries.ts';
import type { PolicyService, PolicyView } from './services/policies.ts';
import type { RegistryService } from './services/registry.ts';

export const typeDefs = /* GraphQL */ `
  enum IdentityRuleKind { EXACT NORMALIZED FUZZY }

  type IdentityField {
    field: String!
    normalizers: [String!]!
    "Fuzzy rules: the pg_trgm similarity needed (null: equal after normalization)."
    threshold: Float
  }
  type IdentityRule { name: String! kind: IdentityRuleKind! fields: [IdentityField!]! }
  type BlockingKey { field: String! normalizers: [String!]! prefix: Int }

  "An identity policy: rules deciding that two records are one entity. Its matching spec lives in immutable versions."
  type IdentityPolicy {
    id: ID!
    name: String!
    description: String!
    "The current version."
    version: Int!
    fingerprint: String!
    rules: [IdentityRule!]!
    blockingKeys: [BlockingKey!]!
    maxBlockSize: Int!
    "Oldest first."
    versions: [IdentityPolicyVersion!]!
    createdAt: DateTime!
    updatedAt: DateTime!
  }
  type IdentityPolicyVersion {
    version: Int!
    fingerprint: String!
    rules: [IdentityRule!]!
    blockingKeys: [BlockingKey!]!
    maxBlockSize: Int!
    createdAt: DateTime!
  }
  type IdentityPolicyEdge { node: IdentityPolicy! cursor: String! }
  type IdentityPolicyConnection { edges: [IdentityPolicyEdge!]! pageInfo: PageInfo! }

  enum RegistrySchemaSource { REGISTERED DISCOVERED LIBRARY }
  "The latest version of a subject of the tenant's schema registry."
  type RegistrySchema {
    id: ID!
    subject: String!
    version: Int!
    domain: String
    description: String!
    schema: JSON!
    fingerprint: String!
    source: RegistrySchemaSource!
    datasetId: String
    createdAt: DateTime!
  }
  type RegistrySchemaEdge { node: RegistrySchema! cursor: String! }
  type RegistrySchemaConnection { edges: [RegistrySchemaEdge!]! pageInfo: PageInfo! }

  "A schema of a built-in library (JSON Schema draft-07)."
  type LibrarySchema { fullId: String! libraryId: String! domain: String! schemaId: String! title: String! description: String! version: String! schema: JSON! }
  type LibrarySchemaEdge { node: LibrarySchema! cursor: String! }
  type LibrarySchemaConnection { edges: [LibrarySchemaEdge!]! pageInfo: PageInfo! }

  extend type Query {
    "The tenant's identity policies."
    identityPolicies(first: Int, after: String): IdentityPolicyConnection!
    "An identity policy (null when absent)."
    identityPolicy(id: ID!): IdentityPolicy
    "The tenant's registered schemas (latest version of each subject), by subject."
    registrySchemas(domain: String, first: Int, after: String): RegistrySchemaConnection!
    "The built-in libraries' schemas (the /sdm index), by library and domain."
    librarySchemas(libraryId: String, domain: String, first: Int, after: String): LibrarySchemaConnection!
  }
`;

function offsetOf(after: string | null | undefined): number {
  const offset = decodeCursor<number>(after) ?? 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > 1_000_000) throw badInput('Malformed cursor');
  return offset;
}

const specFields = {
  blockingKeys: (row: { blocking_keys: unknown[] }) => row.blocking_keys,
  maxBlockSize: (row: { max_block_size: number }) => row.max_block_size,
  createdAt: (row: { created_at: Date }) => row.created_at,
};

export function resolvers(policies: PolicyService, registry: RegistryService, libraries: LibraryService) {
  return {
    Query: {
      async identityPolicies(_: unknown, args: ConnectionArgs, context: GraphqlContext) {
        const tenantId = requireMember(context);
        const size = pageSize(args);
        const offset = offsetOf(args.after);
        const page = await policies.list(tenantId, { limit: size + 1, offset });
        const rows = page.items.map((item, i) => ({ ...item, offset: offset + i + 1 }));
        return toConnection(rows, size, (row) => row.offset, Boolean(args.after));
      },
      async identityPolicy(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        if (!isUuid(args.id)) throw badInput('Malformed id');
        return policies.get(tenantId, args.id).catch((err) => {
          if ((err as { output?: { statusCode: number } }).output?.statusCode === 404) return null;
          throw err;
        });
      },
      async registrySchemas(_: unknown, args: ConnectionArgs & { domain?: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        if (args.domain !== undefined && args.domain !== null && !/^[A-Za-z0-9_][A-Za-z0-9_ .-]{0,99}$/.test(args.domain)) throw badInput('Malformed domain');
        const size = pageSize(args);
        const offset = offsetOf(args.after);
        const page = await registry.list(tenantId, { domain: args.domain ?? undefined }, { limit: size + 1, offset });
        return toConnection(page.items.map((item, i) => ({ ...item, offset: offset + i + 1 })), size, (row) => row.offset, Boolean(args.after));
      },
      librarySchemas(_: unknown, args: ConnectionArgs & { libraryId?: string; domain?: string }, context: GraphqlContext) {
        requireMember(context);
        const size = pageSize(args);
        const offset = offsetOf(args.after);
        const all = libraries.index().libraries.flatMap((l) => l.domains.flatMap((d) => d.schemas))
          .filter((s) => (!args.libraryId || s.library_id === args.libraryId) && (!args.domain || s.domain === args.domain));
        return toConnection(all.slice(offset, offset + size + 1).map((item, i) => ({ ...item, offset: offset + i + 1 })), size, (row) => row.offset, Boolean(args.after));
      },
    },
    IdentityPolicy: {
      ...specFields,
      updatedAt: (row: PolicyView) => row.updated_at,
      async versions(row: PolicyView, _: unknown, context: GraphqlContext) {
        return (await policies.versions(requireMember(context), row.id)).items;
      },
    },
    IdentityPolicyVersion: specFields,
    IdentityRule: { kind: (rule: { kind: string }) => rule.kind.toUpperCase() },
    IdentityField: { normalizers: (f: { normalizers?: string[] }) => f.normalizers ?? [] },
    BlockingKey: { normalizers: (k: { normalizers?: string[] }) => k.normalizers ?? [] },
    RegistrySchema: {
      source: (row: { source: string }) => row.source.toUpperCase(),
      datasetId: (row: { dataset_id: string | null }) => row.dataset_id,
      createdAt: (row: { created_at: Date }) => row.created_at,
    },
    LibrarySchema: {
      fullId: (s: { full_id: string }) => s.full_id, libraryId: (s: { library_id: string }) => s.library_id, schemaId: (s: { schema_id: string }) => s.schema_id,
    },
  };
}

// GraphQL: identity policies (with their versions), the tenant's schema
// registry and the built-in libraries, as Relay connections both ways where
// they are lists. Access as the REST routes: a bearer member of the tenant
// reads; API keys get FORBIDDEN. A registry schema's dataset is read under the
// lakehouse's read rule, as GET /api/v1/datasets/{id} reads it. (Users need
// admin or pipeline_editor over REST and are left out here.)
import type { Request } from '@hapi/hapi';
import DataLoader from 'dataloader';
import {
  arrayConnection, badInput, type ConnectionArgs, type GraphqlContext, isUuid, keysetConnection, requireMember,
} from 'agent-platform/sdk';
import type { GraphqlNode, LakehouseApi } from '../lakehouse/api.ts';
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
  "A page of identity policies."
  type IdentityPolicyConnection {
    edges: [IdentityPolicyEdge!]!
    pageInfo: PageInfo!
    "How many policies the tenant has."
    totalCount: Int!
  }

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
    "The dataset a DISCOVERED schema was read from (null otherwise)."
    datasetId: ID
    "The dataset a DISCOVERED schema was read from, under the lakehouse's read rule (null when none, or gone)."
    dataset: Dataset
    createdAt: DateTime!
  }
  type RegistrySchemaEdge { node: RegistrySchema! cursor: String! }
  "A page of registry schemas."
  type RegistrySchemaConnection {
    edges: [RegistrySchemaEdge!]!
    pageInfo: PageInfo!
    "How many subjects the filter matches."
    totalCount: Int!
  }
  "Which registry schemas to list."
  input RegistrySchemaFilter {
    "Only subjects of this domain."
    domain: String
  }

  "A built-in schema library."
  type SchemaLibrary {
    "The library's id (sdm)."
    id: ID!
    name: String!
    description: String!
    "The library's version (semver)."
    version: String!
    "The ids of its domains."
    domains: [String!]!
    "How many schemas it holds."
    schemaCount: Int!
  }

  "A schema of a built-in library (JSON Schema draft-07)."
  type LibrarySchema {
    "<library>/<domain>/<schema>, e.g. sdm/urban_services/street_light."
    id: ID!
    "The id of the library holding it."
    libraryId: ID!
    "The library holding it."
    library: SchemaLibrary!
    domain: String!
    "Its key within the library (street_light)."
    key: String!
    title: String!
    description: String!
    version: String!
    schema: JSON!
  }
  type LibrarySchemaEdge { node: LibrarySchema! cursor: String! }
  "A page of library schemas."
  type LibrarySchemaConnection {
    edges: [LibrarySchemaEdge!]!
    pageInfo: PageInfo!
    "How many schemas the filter matches."
    totalCount: Int!
  }
  "Which library schemas to list."
  input LibrarySchemaFilter {
    "Only schemas of this library."
    libraryId: ID
    "Only schemas of this domain."
    domain: String
  }

  extend type Query {
    "The tenant's identity policies, oldest first."
    identityPolicies(first: Int, after: String, last: Int, before: String): IdentityPolicyConnection!
    "An identity policy (null when absent)."
    identityPolicy(id: ID!): IdentityPolicy
    "The tenant's registered schemas (latest version of each subject), by subject."
    registrySchemas(filter: RegistrySchemaFilter, first: Int, after: String, last: Int, before: String): RegistrySchemaConnection!
    "The built-in libraries' schemas (the /sdm index), by library and domain."
    librarySchemas(filter: LibrarySchemaFilter, first: Int, after: String, last: Int, before: String): LibrarySchemaConnection!
  }
`;

const DOMAIN = /^[A-Za-z0-9_][A-Za-z0-9_ .-]{0,99}$/;
const LIBRARY_ID = /^[a-z0-9_]{1,63}$/;
const MICROS = /^-?\d{1,19}$/;

/** A policy cursor: [created_at in microseconds since the epoch, id]. */
const isPolicyKey = (key: unknown) =>
  Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && MICROS.test(key[0]) && typeof key[1] === 'string' && isUuid(key[1]);

const specFields = {
  blockingKeys: (row: { blocking_keys: unknown[] }) => row.blocking_keys,
  maxBlockSize: (row: { max_block_size: number }) => row.max_block_size,
  createdAt: (row: { created_at: Date }) => row.created_at,
};

export function resolvers(policies: PolicyService, registry: RegistryService, libraries: LibraryService, lake: () => LakehouseApi) {
  // One dataset loader per request: the schemas of a page that name one dataset read it once.
  const perRequest = new WeakMap<Request, DataLoader<string, GraphqlNode | null>>();
  function datasets(context: GraphqlContext, tenantId: string) {
    let loader = perRequest.get(context.request);
    if (!loader) {
      loader = new DataLoader((ids: readonly string[]) =>
        Promise.all(ids.map((id) => lake().datasetNode(tenantId, id).catch((err: Error) => err))));
      perRequest.set(context.request, loader);
    }
    return loader;
  }
  const libraryById = () => new Map(libraries.libraries().items.map((library) => [library.id, library]));

  return {
    Query: {
      async identityPolicies(_: unknown, args: ConnectionArgs, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return keysetConnection(args, {
          keyOf: (row: { createdKey: string; id: string }): [string, string] => [row.createdKey, row.id],
          validKey: isPolicyKey,
          fetch: (page) => policies.page(tenantId, page),
          count: () => policies.count(tenantId),
        });
      },
      async identityPolicy(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        if (!isUuid(args.id)) return null;
        return policies.get(tenantId, args.id).catch((err) => {
          if ((err as { output?: { statusCode: number } }).output?.statusCode === 404) return null;
          throw err;
        });
      },
      async registrySchemas(_: unknown, args: ConnectionArgs & { filter?: { domain?: string | null } | null }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        const domain = args.filter?.domain ?? undefined;
        if (domain !== undefined && !DOMAIN.test(domain)) throw badInput('filter.domain is not a valid domain');
        return keysetConnection(args, {
          keyOf: (row: { subject: string }) => row.subject,
          validKey: (key) => typeof key === 'string' && key.length > 0 && key.length <= 1000,
          fetch: (page) => registry.page(tenantId, { domain }, page),
          count: () => registry.count(tenantId, { domain }),
        });
      },
      librarySchemas(_: unknown, args: ConnectionArgs & { filter?: { libraryId?: string | null; domain?: string | null } | null }, context: GraphqlContext) {
        requireMember(context);
        const libraryId = args.filter?.libraryId ?? undefined;
        const domain = args.filter?.domain ?? undefined;
        if (libraryId !== undefined && !LIBRARY_ID.test(libraryId)) throw badInput('filter.libraryId is not a valid library id');
        const all = libraries.index().libraries.flatMap((l) => l.domains.flatMap((d) => d.schemas))
          .filter((s) => (!libraryId || s.library_id === libraryId) && (!domain || s.domain === domain));
        return arrayConnection(all, args, (s) => s.full_id);
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
      dataset(row: { dataset_id: string | null }, _: unknown, context: GraphqlContext) {
        return row.dataset_id === null ? null : datasets(context, requireMember(context)).load(row.dataset_id);
      },
      createdAt: (row: { created_at: Date }) => row.created_at,
    },
    SchemaLibrary: {
      schemaCount: (library: { schema_count: number }) => library.schema_count,
    },
    LibrarySchema: {
      id: (s: { full_id: string }) => s.full_id,
      libraryId: (s: { library_id: string }) => s.library_id,
      library: (s: { library_id: string }) => libraryById().get(s.library_id),
      key: (s: { schema_id: string }) => s.schema_id,
    },
  };
}

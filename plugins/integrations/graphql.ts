// GraphQL: `specs` (imported specs) and `functions(filter)` (callable
// functions: the platform's and the imported ones, by name; `filter.source`
// is a spec name or "platform"), as Relay connections keyed by name, both
// ways, with totalCount. A function's `spec` is loaded per request in
// batches. Resolvers call the catalog service and the registry, never SQL.
//
// Access as in REST: the admin role, as GET /api/admin/integrations/specs,
// …/specs/{id}, …/functions?source= and GET /api/admin/functions (imported
// specs and functions are tenant configuration). API keys get FORBIDDEN.
import DataLoader from 'dataloader';
import type { Request } from '@hapi/hapi';
import {
  type ConnectionArgs, type FunctionRegistry, type GraphqlContext, type KeysetPage, keysetConnection, requireAdmin,
} from 'agent-platform/sdk';
import type { CatalogService } from './services/catalog.ts';
import type { FunctionView, SpecView } from './views/view.ts';

export const typeDefs = /* GraphQL */ `
  enum IntegrationSpecStatus {
    ACTIVE
    SYNC_FAILED
  }

  enum CallableFunctionStatus {
    ACTIVE
    REMOVED
  }

  "How an imported spec's functions authenticate (never the credential itself)."
  type IntegrationAuth {
    scheme: String!
    header: String
    queryParam: String
    credentialSource: String
    tokenUrl: String
    valueSet: Boolean!
  }

  "An imported OpenAPI description."
  type IntegrationSpec {
    id: ID!
    name: String!
    prefix: String!
    sourceKind: String!
    source: String
    contentHash: String!
    status: IntegrationSpecStatus!
    format: String!
    title: String!
    apiVersion: String!
    baseUrl: String
    functionCount: Int!
    removedCount: Int!
    auth: IntegrationAuth!
    lastSyncAt: DateTime
    lastSyncResult: String
    lastError: String
    createdAt: DateTime!
    updatedAt: DateTime!
    "The spec's functions, by name (a filter.source other than the spec's name: none)."
    functions(filter: CallableFunctionFilter, first: Int, after: String, last: Int, before: String): CallableFunctionConnection!
  }

  type IntegrationSpecEdge {
    node: IntegrationSpec!
    cursor: String!
  }

  "Imported specs, by name."
  type IntegrationSpecConnection {
    edges: [IntegrationSpecEdge!]!
    pageInfo: PageInfo!
    "How many specs the tenant has imported."
    totalCount: Int!
  }

  "A function agents and workflow ACTION steps can call."
  type CallableFunction {
    name: String!
    description: String!
    "platform, or the name of the imported spec"
    source: String!
    status: CallableFunctionStatus!
    "JSON Schema of the arguments"
    parameters: JSON!
    "Imported functions: argument name to {location, required, schema}"
    parameterLocations: JSON
    method: String
    path: String
    "Imported functions: the operationId of its operation in the spec's document"
    operationId: ID
    "Imported functions: the id of the spec it was imported from"
    specId: ID
    "Imported functions: the spec it was imported from; null for the platform's"
    spec: IntegrationSpec
  }

  type CallableFunctionEdge {
    node: CallableFunction!
    cursor: String!
  }

  "Callable functions, by name."
  type CallableFunctionConnection {
    edges: [CallableFunctionEdge!]!
    pageInfo: PageInfo!
    "How many functions the list holds, with its filter."
    totalCount: Int!
  }

  "Which callable functions a list holds (GET /api/admin/integrations/functions?source=&status=)."
  input CallableFunctionFilter {
    "platform, or the name of an imported spec"
    source: String
    "Only functions with this status (the platform's are all ACTIVE)."
    status: CallableFunctionStatus
  }

  extend type Query {
    "Imported OpenAPI specs of the tenant, by name."
    specs(first: Int, after: String, last: Int, before: String): IntegrationSpecConnection!
    "Callable functions by name; filter.source: a spec name, or \\"platform\\"."
    functions(filter: CallableFunctionFilter, first: Int, after: String, last: Int, before: String): CallableFunctionConnection!
  }
`;

interface Node {
  name: string;
  description: string;
  source: string;
  status: string;
  parameters: unknown;
  parameterLocations: unknown;
  method: string | null;
  path: string | null;
  operationId: string | null;
  specId: string | null;
}

const importedNode = (fn: FunctionView): Node => ({
  name: fn.name, description: fn.description, source: fn.source, status: fn.status.toUpperCase(), parameters: fn.json_schema,
  parameterLocations: fn.parameters, method: fn.method, path: fn.path, operationId: fn.operation_id, specId: fn.spec_id,
});

interface FunctionFilterInput {
  source?: string | null;
  status?: string | null;
}

type FunctionsArgs = ConnectionArgs & { filter?: FunctionFilterInput | null };

const byName = (a: Node, b: Node) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const isNameKey = (key: unknown): key is string => typeof key === 'string';

export function resolvers(catalog: CatalogService, registry: FunctionRegistry) {
  async function platformFunctions(tenantId: string): Promise<Node[]> {
    const all = await registry.list(tenantId, { source: 'platform' });
    return all.map((fn) => ({
      name: fn.name, description: fn.description, source: 'platform', status: 'ACTIVE', parameters: fn.parameters,
      parameterLocations: null, method: null, path: null, operationId: null, specId: null,
    })).sort(byName);
  }

  /** The platform's functions of a keyset page (KeysetPage order: reversed when backward). */
  function platformPage(all: Node[], page: KeysetPage<string>): Node[] {
    const forward = page.direction === 'forward';
    const rows = all.filter((fn) => page.cursor === undefined || (forward ? fn.name > page.cursor : fn.name < page.cursor));
    return (forward ? rows : rows.reverse()).slice(0, page.limit);
  }

  function functionsConnection(tenantId: string, args: FunctionsArgs, specName?: string) {
    const status = args.filter?.status ? (args.filter.status.toLowerCase() as 'active' | 'removed') : undefined;
    const asked = args.filter?.source ?? undefined;
    const source = specName ?? asked;
    const onlyPlatform = specName === undefined && source === 'platform';
    const withPlatform = specName === undefined && (source === undefined || onlyPlatform) && status !== 'removed';
    const withImported = !onlyPlatform && (specName === undefined || asked === undefined || asked === specName);
    let platform: Promise<Node[]> | undefined;
    const platformAll = () => (platform ??= withPlatform ? platformFunctions(tenantId) : Promise.resolve([]));
    return keysetConnection(args, {
      keyOf: (row: Node) => row.name,
      validKey: isNameKey,
      async fetch(page) {
        const [imported, own] = await Promise.all([
          withImported ? catalog.functionsPage(tenantId, { source, status }, page).then((rows) => rows.map(importedNode)) : [],
          platformAll().then((all) => platformPage(all, page)),
        ]);
        const merged = [...own, ...imported].sort(byName);
        return (page.direction === 'forward' ? merged : merged.reverse()).slice(0, page.limit);
      },
      async count() {
        const [imported, own] = await Promise.all([withImported ? catalog.countFunctions(tenantId, { source, status }) : 0, platformAll()]);
        return imported + own.length;
      },
    });
  }

  // One spec loader per request: a page of functions reads its specs in one query.
  const specLoaders = new WeakMap<Request, DataLoader<string, SpecView | undefined>>();
  function specLoader(context: GraphqlContext, tenantId: string) {
    let loader = specLoaders.get(context.request);
    if (!loader) {
      loader = new DataLoader(async (ids: readonly string[]) => {
        const found = new Map((await catalog.specsByIds(tenantId, ids)).map((spec) => [spec.id, spec]));
        return ids.map((id) => found.get(id));
      });
      specLoaders.set(context.request, loader);
    }
    return loader;
  }

  return {
    Query: {
      specs(_: unknown, args: ConnectionArgs, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        return keysetConnection(args, {
          keyOf: (row: SpecView) => row.name,
          validKey: isNameKey,
          fetch: (page) => catalog.specsPage(tenantId, page),
          count: () => catalog.countSpecs(tenantId),
        });
      },
      functions: (_: unknown, args: FunctionsArgs, context: GraphqlContext) => functionsConnection(requireAdmin(context), args),
    },
    CallableFunction: {
      spec: (fn: Node, _: unknown, context: GraphqlContext) => (fn.specId === null ? null : specLoader(context, requireAdmin(context)).load(fn.specId)),
    },
    IntegrationSpec: {
      sourceKind: (spec: SpecView) => spec.source_kind,
      contentHash: (spec: SpecView) => spec.content_hash,
      status: (spec: SpecView) => spec.status.toUpperCase(),
      apiVersion: (spec: SpecView) => spec.api_version,
      baseUrl: (spec: SpecView) => spec.base_url,
      functionCount: (spec: SpecView) => spec.function_count,
      removedCount: (spec: SpecView) => spec.removed_count,
      lastSyncAt: (spec: SpecView) => spec.last_sync_at,
      lastSyncResult: (spec: SpecView) => spec.last_sync_result,
      lastError: (spec: SpecView) => spec.last_error,
      createdAt: (spec: SpecView) => spec.created_at,
      updatedAt: (spec: SpecView) => spec.updated_at,
      functions: (spec: SpecView, args: FunctionsArgs, context: GraphqlContext) => functionsConnection(requireAdmin(context), args, spec.name),
    },
    IntegrationAuth: {
      queryParam: (auth: SpecView['auth']) => auth.query_param,
      credentialSource: (auth: SpecView['auth']) => auth.credential_source,
      tokenUrl: (auth: SpecView['auth']) => auth.token_url,
      valueSet: (auth: SpecView['auth']) => auth.value_set,
    },
  };
}

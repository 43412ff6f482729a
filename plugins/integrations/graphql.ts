// GraphQL: `specs` (imported specs) and `functions(source)` (callable
// functions: the platform's and the imported ones, by name; `source` is a
// spec name or "platform"), as Relay connections keyed by name. Resolvers
// call the catalog service and the registry, never SQL.
//
// Access as in REST: the admin role, as GET /api/admin/integrations/specs,
// …/functions?source= and GET /api/admin/functions (imported specs and
// functions are tenant configuration). API keys get FORBIDDEN.
import {
  type ConnectionArgs, decodeCursor, type FunctionRegistry, type GraphqlContext, pageSize, requireAdmin, toConnection,
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
    "The spec's functions, by name."
    functions(status: CallableFunctionStatus, first: Int, after: String): CallableFunctionConnection!
  }

  type IntegrationSpecEdge {
    node: IntegrationSpec!
    cursor: String!
  }

  type IntegrationSpecConnection {
    edges: [IntegrationSpecEdge!]!
    pageInfo: PageInfo!
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
    operationId: String
    specId: ID
  }

  type CallableFunctionEdge {
    node: CallableFunction!
    cursor: String!
  }

  type CallableFunctionConnection {
    edges: [CallableFunctionEdge!]!
    pageInfo: PageInfo!
  }

  extend type Query {
    "Imported OpenAPI specs of the tenant, by name."
    specs(first: Int, after: String): IntegrationSpecConnection!
    "Callable functions by name; source: a spec name, or \\"platform\\"."
    functions(source: String, status: CallableFunctionStatus, first: Int, after: String): CallableFunctionConnection!
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

type FunctionsArgs = ConnectionArgs & { source?: string | null; status?: string | null };

export function resolvers(catalog: CatalogService, registry: FunctionRegistry) {
  async function platformAfter(tenantId: string, after: string | undefined, limit: number): Promise<Node[]> {
    const all = await registry.list(tenantId, { source: 'platform' });
    return all
      .filter((fn) => after === undefined || fn.name > after)
      .slice(0, limit)
      .map((fn) => ({
        name: fn.name, description: fn.description, source: 'platform', status: 'ACTIVE', parameters: fn.parameters,
        parameterLocations: null, method: null, path: null, operationId: null, specId: null,
      }));
  }

  async function functionsPage(tenantId: string, args: FunctionsArgs, specName?: string) {
    const size = pageSize(args);
    const after = decodeCursor<string>(args.after);
    const status = args.status ? (args.status.toLowerCase() as 'active' | 'removed') : undefined;
    const source = specName ?? args.source ?? undefined;
    const onlyPlatform = specName === undefined && source === 'platform';
    const withPlatform = specName === undefined && (source === undefined || onlyPlatform) && status !== 'removed';
    const imported = onlyPlatform
      ? []
      : (await catalog.functionsAfter(tenantId, { source, status }, after, size + 1)).map(importedNode);
    const platform = withPlatform ? await platformAfter(tenantId, after, size + 1) : [];
    const rows = [...platform, ...imported].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).slice(0, size + 1);
    return toConnection(rows, size, (row) => row.name, Boolean(args.after));
  }

  return {
    Query: {
      async specs(_: unknown, args: ConnectionArgs, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        const size = pageSize(args);
        const rows = await catalog.specsAfter(tenantId, decodeCursor<string>(args.after), size + 1);
        return toConnection(rows, size, (row) => row.name, Boolean(args.after));
      },
      functions: (_: unknown, args: FunctionsArgs, context: GraphqlContext) => functionsPage(requireAdmin(context), args),
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
      functions: (spec: SpecView, args: FunctionsArgs, context: GraphqlContext) => functionsPage(requireAdmin(context), args, spec.name),
    },
    IntegrationAuth: {
      queryParam: (auth: SpecView['auth']) => auth.query_param,
      credentialSource: (auth: SpecView['auth']) => auth.credential_source,
      tokenUrl: (auth: SpecView['auth']) => auth.token_url,
      valueSet: (auth: SpecView['auth']) => auth.value_set,
    },
  };
}

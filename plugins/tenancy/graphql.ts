// GraphQL: the current tenant and its clients (a Relay connection, both
// ways), and the viewer's tenant. Access as in REST (GET
// /api/admin/tenants/{id}, GET /api/admin/clients): a bearer member of the
// tenant; API keys get FORBIDDEN.
import {
  type ConnectionArgs, type GraphqlContext, keysetConnection, requireMember,
} from 'agent-platform/sdk';
import type { TenancyService } from './services/tenancy.ts';

export const typeDefs = /* GraphQL */ `
  "A tenant: an organisation whose data the platform keeps apart."
  type Tenant {
    "The tenant's alias (what X-Tenant-ID names)."
    id: ID!
    displayName: String!
    createdAt: DateTime!
    "The tenant's clients (chat surfaces, integrations), oldest first."
    clients(first: Int, after: String, last: Int, before: String): ClientConnection!
  }

  "A client of the tenant: a chat surface or integration its API keys belong to."
  type Client {
    id: ID!
    "The public key a surface names itself with."
    clientKey: String!
    name: String!
    createdAt: DateTime!
  }

  "A client in a page of clients."
  type ClientEdge {
    node: Client!
    cursor: String!
  }

  "A page of clients, oldest first."
  type ClientConnection {
    edges: [ClientEdge!]!
    pageInfo: PageInfo!
    "Every client of the tenant."
    totalCount: Int!
  }

  extend type Viewer {
    "The tenant of the request (a member's; API keys get FORBIDDEN, as for Query.tenant); null without one."
    tenant: Tenant
  }

  extend type Query {
    "The tenant of the request (X-Tenant-ID, or the caller's only tenant)."
    tenant: Tenant
    "The tenant's clients, oldest first."
    clients(first: Int, after: String, last: Int, before: String): ClientConnection!
  }
`;

const isClientId = (key: unknown) => Number.isSafeInteger(key) && (key as number) >= 0;

export function resolvers(service: TenancyService) {
  const clients = (tenantId: string, args: ConnectionArgs) => keysetConnection(args, {
    keyOf: (row: { id: number }) => row.id,
    validKey: isClientId,
    fetch: (page) => service.clientsPage(tenantId, page),
    count: () => service.countClients(tenantId),
  });
  return {
    Query: {
      tenant: (_: unknown, __: unknown, context: GraphqlContext) => service.getTenant(requireMember(context)),
      clients: (_: unknown, args: ConnectionArgs, context: GraphqlContext) => clients(requireMember(context), args),
    },
    Viewer: {
      tenant: (_: unknown, __: unknown, context: GraphqlContext) => (context.tenantId ? service.getTenant(requireMember(context)) : null),
    },
    Tenant: {
      displayName: (tenant: { display_name: string }) => tenant.display_name,
      createdAt: (tenant: { created_at: Date }) => tenant.created_at,
      clients: (tenant: { id: string }, args: ConnectionArgs, context: GraphqlContext) => clients(requireMember(context, tenant.id), args),
    },
    Client: {
      clientKey: (client: { client_key: string }) => client.client_key,
      createdAt: (client: { created_at: Date }) => client.created_at,
    },
  };
}

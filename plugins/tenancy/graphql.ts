// GraphQL: the current tenant and its clients (a Relay connection). Access
// as in REST (GET /api/admin/tenants/{id}, GET /api/admin/clients): a bearer
// member of the tenant; API keys get FORBIDDEN.
import { type ConnectionArgs, decodeCursor, type GraphqlContext, pageSize, requireMember, toConnection } from 'agent-platform/sdk';
import type { TenancyService } from './services/tenancy.ts';

export const typeDefs = /* GraphQL */ `
  type Tenant {
    id: String!
    displayName: String!
    createdAt: DateTime!
    clients(first: Int, after: String): ClientConnection!
  }

  type Client {
    id: Int!
    clientKey: String!
    name: String!
    createdAt: DateTime!
  }

  type ClientEdge {
    node: Client!
    cursor: String!
  }

  type ClientConnection {
    edges: [ClientEdge!]!
    pageInfo: PageInfo!
  }

  extend type Query {
    "The tenant of the request (X-Tenant-ID, or the caller's only tenant)."
    tenant: Tenant
    clients(first: Int, after: String): ClientConnection!
  }
`;

export function resolvers(service: TenancyService) {
  const clients = async (tenantId: string, args: ConnectionArgs) => {
    const size = pageSize(args);
    const after = decodeCursor<number>(args.after) ?? 0;
    const rows = await service.clientsAfter(tenantId, after, size + 1);
    return toConnection(rows, size, (row) => row.id, Boolean(args.after));
  };
  return {
    Query: {
      tenant: (_: unknown, __: unknown, context: GraphqlContext) => service.getTenant(requireMember(context)),
      clients: (_: unknown, args: ConnectionArgs, context: GraphqlContext) => clients(requireMember(context), args),
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

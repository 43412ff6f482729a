// GraphQL facade of approvals: the `approvals` connection, `approval(id)`,
// the `decideApproval` mutation and the `approvalResolved` subscription
// (over SSE or WebSocket; the tenant of X-Tenant-ID). Same principals and rules as REST: any member of
// the tenant (never an API key), the service deciding what each may see and
// do; a subscriber gets only the cases it may see.
import { GraphQLError } from 'graphql';
import { filter } from 'agent-platform/sdk';
import {
  badInput, type ConnectionArgs, decodeCursor, type GraphqlContext, pageSize, requireMember, requirePrincipal, toConnection,
} from 'agent-platform/sdk';
import { maySee } from './access.ts';
import type { ApprovalCase, Decision } from './api.ts';
import type { Live } from './services/live.ts';
import type { ApprovalsService } from './services/approvals.ts';

export const typeDefs = /* GraphQL */ `
  enum ApprovalStatus {
    PENDING
    APPROVED
    REJECTED
    EXPIRED
    CANCELLED
  }

  enum ApprovalDecisionValue {
    APPROVE
    REJECT
  }

  type ApprovalApprovers {
    roles: [String!]!
    users: [String!]!
  }

  type ApprovalDecision {
    by: String!
    decision: ApprovalDecisionValue!
    comment: String
    decidedAt: DateTime!
    via: String!
  }

  "A person's decision a workflow (APPROVAL step) or an agent (request_approval) waits for."
  type ApprovalCase {
    id: ID!
    title: String!
    description: String!
    payload: JSON
    "The source: {type: workflow, execution_id, step_id} | {type: agent, session_id, turn_id, tool_call_id} | {type: api}."
    source: JSON!
    sourceType: String!
    approvers: ApprovalApprovers!
    quorum: Int!
    status: ApprovalStatus!
    decisions: [ApprovalDecision!]!
    requestedBy: String!
    expiresAt: DateTime!
    createdAt: DateTime!
    resolvedAt: DateTime
  }

  type ApprovalCaseEdge {
    node: ApprovalCase!
    cursor: String!
  }

  type ApprovalCaseConnection {
    edges: [ApprovalCaseEdge!]!
    pageInfo: PageInfo!
  }

  extend type Query {
    "Approval cases the caller may decide (an admin: all, unless mine), newest first."
    approvals(status: ApprovalStatus, mine: Boolean, first: Int, after: String): ApprovalCaseConnection!
    approval(id: ID!): ApprovalCase
  }

  type Mutation {
    "Approve or reject (an eligible approver, once)."
    decideApproval(id: ID!, decision: ApprovalDecisionValue!, comment: String): ApprovalCase!
  }

  type Subscription {
    "Each case of the tenant (X-Tenant-ID) the caller may see, when it is settled (over SSE with Accept: text/event-stream, or WebSocket)."
    approvalResolved: ApprovalCase!
  }
`;

/** A service error (Boom) as a GraphQL error with the REST code. */
function asGraphql(err: unknown): never {
  const boom = err as { isBoom?: boolean; message: string; output?: { statusCode: number; payload: { code?: string } } };
  if (boom.isBoom && boom.output && boom.output.statusCode < 500) {
    throw new GraphQLError(boom.message, { extensions: { code: boom.output.payload.code ?? 'BAD_REQUEST', http: { status: 200 } } });
  }
  throw err;
}

export function resolvers(service: ApprovalsService, live: Live) {
  return {
    Query: {
      async approvals(_: unknown, args: ConnectionArgs & { status?: string | null; mine?: boolean | null }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        const size = pageSize(args);
        const skip = decodeCursor<number>(args.after) ?? 0;
        if (!Number.isSafeInteger(skip) || skip < 0) throw badInput('Malformed cursor');
        const page = await service.list(tenantId, requirePrincipal(context), {
          status: args.status?.toLowerCase() as ApprovalCase['status'] | undefined, mine: args.mine ?? false,
        }, skip, size + 1);
        const offsets = new Map(page.items.map((row, i) => [row, skip + i + 1]));
        return toConnection(page.items, size, (row) => offsets.get(row)!, Boolean(args.after));
      },
      approval(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return service.find(tenantId, requirePrincipal(context), args.id);
      },
    },
    Mutation: {
      decideApproval(_: unknown, args: { id: string; decision: string; comment?: string | null }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        if (args.comment && (args.comment.length > 2000 || args.comment.includes('\u0000'))) throw badInput('comment must be up to 2000 characters');
        return service.decide(tenantId, requirePrincipal(context), args.id, args.decision.toLowerCase() as Decision['decision'], args.comment)
          .catch(asGraphql);
      },
    },
    Subscription: {
      approvalResolved: {
        subscribe(_: unknown, __: unknown, context: GraphqlContext) {
          const tenantId = requireMember(context);
          const principal = requirePrincipal(context);
          return filter((row: ApprovalCase) => maySee(row, principal, tenantId))(live.subscribe(tenantId));
        },
        resolve: (row: ApprovalCase) => row,
      },
    },
    ApprovalCase: {
      status: (row: ApprovalCase) => row.status.toUpperCase(),
      sourceType: (row: ApprovalCase) => row.source.type,
      approvers: (row: ApprovalCase) => ({ roles: row.approvers.roles ?? [], users: row.approvers.users ?? [] }),
      requestedBy: (row: ApprovalCase) => row.requested_by,
      expiresAt: (row: ApprovalCase) => row.expires_at,
      createdAt: (row: ApprovalCase) => row.created_at,
      resolvedAt: (row: ApprovalCase) => row.resolved_at,
    },
    ApprovalDecision: {
      decision: (decision: Decision) => decision.decision.toUpperCase(),
      decidedAt: (decision: Decision) => decision.decided_at,
    },
  };
}

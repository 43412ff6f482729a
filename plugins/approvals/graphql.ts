// GraphQL facade of approvals: the `approvals` connection (both ways, with
// totalCount), `approval(id)`, the `decideApproval` mutation and the
// `approvalResolved` subscription (over SSE or WebSocket; the tenant of
// X-Tenant-ID). Same principals and rules as REST: any member of
// the tenant (never an API key), the service deciding what each may see and
// do; a subscriber gets only the cases it may see.
import { GraphQLError } from 'graphql';
import { filter } from 'agent-platform/sdk';
import {
  badInput, type ConnectionArgs, type GraphqlContext, isUuid, keysetConnection, requireMember, requirePrincipal,
} from 'agent-platform/sdk';
import { maySee } from './access.ts';
import type { ApprovalCase, Decision } from './api.ts';
import type { Live } from './services/live.ts';
import type { ApprovalsService } from './services/approvals.ts';
import type { CaseKey } from './store/approvals.ts';

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

  "A case in a page of approval cases."
  type ApprovalCaseEdge {
    node: ApprovalCase!
    cursor: String!
  }

  "A page of approval cases, newest first."
  type ApprovalCaseConnection {
    edges: [ApprovalCaseEdge!]!
    pageInfo: PageInfo!
    "The cases of the filter the caller may list."
    totalCount: Int!
  }

  "Which approval cases a list holds."
  input ApprovalCaseFilter {
    "Only cases in this status."
    status: ApprovalStatus
    "Only cases the caller may decide itself (an admin otherwise lists all)."
    mine: Boolean
  }

  extend type Query {
    "Approval cases the caller may decide (an admin: all, unless mine), newest first."
    approvals(filter: ApprovalCaseFilter, first: Int, after: String, last: Int, before: String): ApprovalCaseConnection!
    "One case the caller may see; null when there is none."
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

interface FilterInput {
  status?: string | null;
  mine?: boolean | null;
}

const isCaseKey = (key: unknown): boolean => Array.isArray(key) && key.length === 2
  && typeof key[0] === 'string' && !Number.isNaN(Date.parse(key[0])) && typeof key[1] === 'string' && isUuid(key[1]);

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
      approvals(_: unknown, args: ConnectionArgs & { filter?: FilterInput | null }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        const principal = requirePrincipal(context);
        const filter = { status: args.filter?.status?.toLowerCase() as ApprovalCase['status'] | undefined, mine: args.filter?.mine ?? false };
        return keysetConnection(args, {
          keyOf: (row: ApprovalCase): CaseKey => [row.created_at.toISOString(), row.id],
          validKey: isCaseKey,
          fetch: (page) => service.page(tenantId, principal, filter, page),
          count: () => service.count(tenantId, principal, filter),
        });
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

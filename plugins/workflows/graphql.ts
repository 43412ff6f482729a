// GraphQL: executions (a Relay connection, newest first, filtered by status
// and workflow) and one execution with its step history. Resolvers call the
// service; the REST view is renamed to GraphQL's camelCase here. Access as in
// REST (GET /api/admin/executions[/{id}]): a bearer member of the tenant; API
// keys get FORBIDDEN (an execution's context holds its inputs and outputs).
import { badInput, type ConnectionArgs, decodeCursor, type GraphqlContext, isUuid, pageSize, requireAdmin, toConnection } from 'agent-platform/sdk';
import type { ExecutionStatus, WorkflowsService } from './services/workflows.ts';
import type { ExecutionView } from './views/view.ts';

export const typeDefs = /* GraphQL */ `
  enum ExecutionStatus {
    RUNNING
    WAITING
    COMPLETED
    FAILED
    CANCELLED
  }

  "One step run of an execution, in the order they ran."
  type ExecutionStep {
    stepId: String!
    type: String!
    "running, waiting, completed, failed, then, else, signal, timeout or cancelled"
    status: String!
    startedAt: DateTime!
    finishedAt: DateTime
    durationMs: Int
    error: String
  }

  type Execution {
    id: ID!
    workflowName: String!
    workflowVersion: Int!
    status: ExecutionStatus!
    currentStep: String
    "The inputs and every output_key written so far."
    context: JSON!
    "Event types the execution waits for; empty when it is not waiting."
    pendingEvents: [String!]!
    error: String
    origin: JSON!
    createdAt: DateTime!
    updatedAt: DateTime!
    finishedAt: DateTime
    steps: [ExecutionStep!]!
  }

  type ExecutionEdge {
    node: Execution!
    cursor: String!
  }

  type ExecutionConnection {
    edges: [ExecutionEdge!]!
    pageInfo: PageInfo!
  }

  extend type Query {
    "Workflow executions of the tenant, newest first."
    executions(status: ExecutionStatus, workflow: String, first: Int, after: String): ExecutionConnection!
    execution(id: ID!): Execution
  }
`;

type ExecutionsArgs = ConnectionArgs & { status?: string | null; workflow?: string | null };
type Step = ExecutionView['steps'][number];

export function resolvers(service: WorkflowsService) {
  return {
    Query: {
      async executions(_: unknown, args: ExecutionsArgs, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        const size = pageSize(args);
        const after = decodeCursor<string>(args.after);
        if (after !== undefined && (typeof after !== 'string' || !isUuid(after))) {
          throw badInput('Malformed cursor');
        }
        const filter = { status: args.status?.toLowerCase() as ExecutionStatus | undefined, workflow: args.workflow ?? undefined };
        const rows = await service.executionsAfter(tenantId, filter, after, size + 1);
        return toConnection(rows, size, (row) => row.execution_id, Boolean(args.after));
      },
      execution(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        return isUuid(args.id) ? service.findExecution(tenantId, args.id) : null;
      },
    },
    Execution: {
      id: (execution: ExecutionView) => execution.execution_id,
      workflowName: (execution: ExecutionView) => execution.workflow_name,
      workflowVersion: (execution: ExecutionView) => execution.workflow_version,
      status: (execution: ExecutionView) => execution.status.toUpperCase(),
      currentStep: (execution: ExecutionView) => execution.current_step,
      pendingEvents: (execution: ExecutionView) => execution.pending_events,
      createdAt: (execution: ExecutionView) => execution.created_at,
      updatedAt: (execution: ExecutionView) => execution.updated_at,
      finishedAt: (execution: ExecutionView) => execution.finished_at,
    },
    ExecutionStep: {
      stepId: (step: Step) => step.step_id,
      startedAt: (step: Step) => step.started_at,
      finishedAt: (step: Step) => step.finished_at,
      durationMs: (step: Step) => step.duration_ms,
    },
  };
}

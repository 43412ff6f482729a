// GraphQL: executions (a Relay connection both ways, newest first, filtered
// by status and workflow name) and one execution with its step history, what
// it waits for and the signals it holds. Resolvers call the service; the view
// is renamed to GraphQL's camelCase here. Access as in REST
// (GET /api/admin/executions[/{id}]): a tenant admin; a member gets
// ROLE_REQUIRED, an API key FORBIDDEN (an execution's context holds its
// inputs and outputs).
import { type ConnectionArgs, type GraphqlContext, isUuid, keysetConnection, requireAdmin } from 'agent-platform/sdk';
import type { ExecutionStatus, WorkflowsService } from './services/workflows.ts';
import type { ExecutionGraphView, signalView, waitView } from './views/view.ts';

export const typeDefs = /* GraphQL */ `
  "Where an execution stands."
  enum ExecutionStatus {
    RUNNING
    WAITING
    COMPLETED
    FAILED
    CANCELLED
  }

  "The kind of a workflow step."
  enum ExecutionStepType {
    ACTION
    CONDITION
    WAIT
    APPROVAL
  }

  """
  How a step run stands or ended: RUNNING or WAITING while open; COMPLETED or
  FAILED (ACTION; an APPROVAL completes when its case is resolved); THEN or
  ELSE (CONDITION); SIGNAL or TIMEOUT (WAIT: resumed by a signal or by its
  deadline; TIMEOUT also for an APPROVAL whose case expired); CANCELLED.
  """
  enum ExecutionStepStatus {
    RUNNING
    WAITING
    COMPLETED
    FAILED
    THEN
    ELSE
    SIGNAL
    TIMEOUT
    CANCELLED
  }

  "What a waiting execution waits for."
  enum ExecutionWaitKind {
    "A signal of an event type (and filter), or the deadline."
    EVENT
    "The deadline alone (a WAIT without an event type)."
    TIMER
    "An approval case to be resolved (an APPROVAL step), or its expiry."
    APPROVAL
  }

  "One step run of an execution, in the order they ran (a step visited twice has two)."
  type ExecutionStep {
    "The step's id in the definition the execution started with."
    stepId: ID!
    type: ExecutionStepType!
    status: ExecutionStepStatus!
    startedAt: DateTime!
    "When the step ended; for a WAIT or APPROVAL, when the execution resumed."
    finishedAt: DateTime
    durationMs: Int
    error: String
  }

  "What a waiting execution waits for, until when."
  type ExecutionWait {
    "The WAIT or APPROVAL step waited on."
    stepId: ID!
    "The open run of that step in the history."
    step: ExecutionStep
    kind: ExecutionWaitKind!
    "The event type (or pattern) that resumes it (EVENT only)."
    eventType: String
    "Conditions on the signal's data (AND); {} matches any (EVENT only)."
    eventFilter: JSON
    "When the wait times out (an approval case expires)."
    deadline: DateTime!
  }

  "A signal an execution received that no wait has taken yet: offered to later waits, oldest first."
  type ExecutionSignal {
    eventType: String!
    "The signal's event data."
    data: JSON!
    "Who sent it, e.g. webhook, event, api."
    sender: String!
    receivedAt: DateTime!
  }

  "A run of a workflow: its status, context, step history, what it waits for and the signals it holds."
  type Execution {
    id: ID!
    workflowName: String!
    workflowVersion: Int!
    status: ExecutionStatus!
    currentStep: String
    "The inputs and every output_key written so far (a WAIT's output says which signal resumed it, or that it timed out)."
    context: JSON!
    "Event types the execution waits for; empty when it is not waiting."
    pendingEvents: [String!]!
    "What it waits for now (an event, a timer or an approval, with the deadline); null when not waiting."
    wait: ExecutionWait
    "Signals received and not yet taken by a wait, oldest first."
    bufferedSignals: [ExecutionSignal!]!
    "How many signals are buffered."
    bufferedSignalCount: Int!
    error: String
    origin: JSON!
    createdAt: DateTime!
    updatedAt: DateTime!
    finishedAt: DateTime
    "The step history with timings, in the order the steps ran."
    steps: [ExecutionStep!]!
  }

  "Conditions on executions (AND)."
  input ExecutionFilter {
    status: ExecutionStatus
    "The workflow (definition) name."
    workflowName: String
  }

  type ExecutionEdge {
    node: Execution!
    cursor: String!
  }

  type ExecutionConnection {
    edges: [ExecutionEdge!]!
    pageInfo: PageInfo!
    "Executions that match the filter."
    totalCount: Int!
  }

  extend type Query {
    "Workflow executions of the tenant, newest first."
    executions(filter: ExecutionFilter, first: Int, after: String, last: Int, before: String): ExecutionConnection!
    "An execution (null when absent)."
    execution(id: ID!): Execution
  }
`;

type ExecutionsArgs = ConnectionArgs & { filter?: { status?: string | null; workflowName?: string | null } | null };
type Step = ExecutionGraphView['steps'][number];
type Wait = ReturnType<typeof waitView> & { steps: Step[] };
type Signal = ReturnType<typeof signalView>;

export function resolvers(service: WorkflowsService) {
  return {
    Query: {
      executions(_: unknown, args: ExecutionsArgs, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        const filter = {
          status: args.filter?.status?.toLowerCase() as ExecutionStatus | undefined,
          workflow: args.filter?.workflowName ?? undefined,
        };
        return keysetConnection(args, {
          keyOf: (row: ExecutionGraphView) => row.execution_id,
          validKey: (key) => typeof key === 'string' && isUuid(key),
          fetch: (page) => service.executionPage(tenantId, filter, page),
          count: () => service.countExecutions(tenantId, filter),
        });
      },
      execution(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        return isUuid(args.id) ? service.findExecution(tenantId, args.id) : null;
      },
    },
    Execution: {
      id: (execution: ExecutionGraphView) => execution.execution_id,
      workflowName: (execution: ExecutionGraphView) => execution.workflow_name,
      workflowVersion: (execution: ExecutionGraphView) => execution.workflow_version,
      status: (execution: ExecutionGraphView) => execution.status.toUpperCase(),
      currentStep: (execution: ExecutionGraphView) => execution.current_step,
      pendingEvents: (execution: ExecutionGraphView) => execution.pending_events,
      wait: (execution: ExecutionGraphView) => (execution.wait_detail ? { ...execution.wait_detail, steps: execution.steps } : null),
      bufferedSignals: (execution: ExecutionGraphView) => execution.signals,
      bufferedSignalCount: (execution: ExecutionGraphView) => execution.buffered_signals,
      createdAt: (execution: ExecutionGraphView) => execution.created_at,
      updatedAt: (execution: ExecutionGraphView) => execution.updated_at,
      finishedAt: (execution: ExecutionGraphView) => execution.finished_at,
    },
    ExecutionWait: {
      stepId: (wait: Wait) => wait.step_id,
      step: (wait: Wait) => wait.steps.findLast((step) => step.step_id === wait.step_id && step.finished_at === null) ?? null,
      kind: (wait: Wait) => wait.kind.toUpperCase(),
      eventType: (wait: Wait) => wait.event_type,
      eventFilter: (wait: Wait) => (wait.kind === 'event' ? wait.event_filter : null),
    },
    ExecutionSignal: {
      eventType: (signal: Signal) => signal.event_type,
      receivedAt: (signal: Signal) => signal.received_at,
    },
    ExecutionStep: {
      stepId: (step: Step) => step.step_id,
      status: (step: Step) => step.status.toUpperCase(),
      startedAt: (step: Step) => step.started_at,
      finishedAt: (step: Step) => step.finished_at,
      durationMs: (step: Step) => step.duration_ms,
    },
  };
}

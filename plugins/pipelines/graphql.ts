// GraphQL: pipelines and their runs with step results ("runs" are what
// GraphQL consumers query), as Relay connections (offset cursors). Access as
// the REST routes: a bearer member of the tenant reads; API keys get
// FORBIDDEN. Snapshot ids are strings (exact 64-bit).
import { badInput, type ConnectionArgs, decodeCursor, type GraphqlContext, isUuid, pageSize, requireMember, toConnection } from 'agent-platform/sdk';
import type { PipelineService } from './services/pipelines.ts';
import type { RunService } from './services/runs.ts';
import type { PipelineView, RunView, StepView } from './views/view.ts';

export const typeDefs = /* GraphQL */ `
  enum PipelineState { DRAFT VALIDATED ACTIVE PAUSED }
  enum PipelineRunKind { SANDBOX PRODUCTION }
  enum PipelineRunTrigger { MANUAL SCHEDULE SENSOR ORCHESTRATOR }
  enum PipelineRunStatus { RUNNING SUCCEEDED FAILED CANCELLED }
  enum PipelineStepStatus { PENDING RUNNING SUCCEEDED FAILED SKIPPED CANCELLED }

  "A pipeline: a DAG of steps (transforms or inline SQL), its versions and runs."
  type Pipeline {
    id: ID!
    name: String!
    description: String!
    "The current (editable) definition's steps, as written."
    steps: JSON!
    scheduleCron: String
    scheduleTimezone: String
    "Runs when an input dataset gets a new snapshot."
    sensor: Boolean!
    state: PipelineState!
    activeVersion: Int
    latestVersion: Int
    activatedAt: DateTime
    nextRunAt: DateTime
    "Newest first."
    runs(kind: PipelineRunKind, first: Int, after: String): PipelineRunConnection!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type PipelineRun {
    id: ID!
    "The workflow id (the same as id)."
    workflowId: String!
    pipelineId: ID!
    version: Int!
    kind: PipelineRunKind!
    trigger: PipelineRunTrigger!
    triggerDetail: JSON!
    status: PipelineRunStatus!
    error: String
    steps: [PipelineStepResult!]!
    startedAt: DateTime!
    finishedAt: DateTime
  }

  type PipelineStepResult {
    stepId: String!
    status: PipelineStepStatus!
    dependsOn: [String!]!
    outputDataset: String
    "The snapshot the step wrote (exact decimal string)."
    snapshotId: String
    rows: Float
    schema: JSON
    sampleRows: JSON
    error: String
    startedAt: DateTime
    finishedAt: DateTime
    durationMs: Int
    sqlMs: Int
  }

  type PipelineEdge { node: Pipeline! cursor: String! }
  type PipelineConnection { edges: [PipelineEdge!]! pageInfo: PageInfo! }
  type PipelineRunEdge { node: PipelineRun! cursor: String! }
  type PipelineRunConnection { edges: [PipelineRunEdge!]! pageInfo: PageInfo! }

  extend type Query {
    "The tenant's pipelines."
    pipelines(first: Int, after: String): PipelineConnection!
    "A pipeline (null when absent)."
    pipeline(id: ID!): Pipeline
    "Runs of a pipeline, or of every pipeline, newest first."
    pipelineRuns(pipelineId: ID, kind: PipelineRunKind, first: Int, after: String): PipelineRunConnection!
    "A pipeline run (null when absent)."
    pipelineRun(id: ID!): PipelineRun
  }
`;

const upper = (value: string) => value.toUpperCase();

function uuidArg(value: string | undefined | null): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isUuid(value)) throw badInput('Malformed id');
  return value;
}

function offsetOf(after: string | null | undefined): number {
  const offset = decodeCursor<number>(after) ?? 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > 1_000_000) throw badInput('Malformed cursor');
  return offset;
}

async function nullWhenAbsent<T>(work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (err) {
    if ((err as { output?: { statusCode: number } }).output?.statusCode === 404) return null;
    throw err;
  }
}

/** Rows with their offset, for the connection's cursors. */
const withOffsets = <T>(rows: T[], offset: number) => rows.map((row, index) => ({ row, offset: offset + index + 1 }));

export function resolvers(pipelines: PipelineService, runs: RunService) {
  const runConnection = async (tenantId: string, pipelineId: string | undefined, args: ConnectionArgs & { kind?: string }) => {
    const size = pageSize(args);
    const offset = offsetOf(args.after);
    const page = await runs.list(tenantId, { pipelineId, kind: args.kind?.toLowerCase() as 'sandbox' | 'production' | undefined }, { limit: size + 1, offset });
    const connection = toConnection(withOffsets(page.items, offset), size, (item) => item.offset, Boolean(args.after));
    return { ...connection, edges: connection.edges.map((edge) => ({ ...edge, node: edge.node.row })) };
  };
  return {
    Query: {
      async pipelines(_: unknown, args: ConnectionArgs, context: GraphqlContext) {
        const tenantId = requireMember(context);
        const size = pageSize(args);
        const offset = offsetOf(args.after);
        const page = await pipelines.list(tenantId, { limit: size + 1, offset });
        const connection = toConnection(withOffsets(page.items, offset), size, (item) => item.offset, Boolean(args.after));
        return { ...connection, edges: connection.edges.map((edge) => ({ ...edge, node: edge.node.row })) };
      },
      pipeline(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return nullWhenAbsent(() => pipelines.get(tenantId, uuidArg(args.id)!));
      },
      pipelineRuns(_: unknown, args: ConnectionArgs & { pipelineId?: string; kind?: string }, context: GraphqlContext) {
        return runConnection(requireMember(context), uuidArg(args.pipelineId), args);
      },
      pipelineRun(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return runs.find(tenantId, uuidArg(args.id)!);
      },
    },
    Pipeline: {
      scheduleCron: (row: PipelineView) => row.schedule?.cron ?? null,
      scheduleTimezone: (row: PipelineView) => row.schedule?.timezone ?? null,
      state: (row: PipelineView) => upper(row.state),
      activeVersion: (row: PipelineView) => row.active_version,
      latestVersion: (row: PipelineView) => row.latest_version,
      activatedAt: (row: PipelineView) => row.activated_at,
      nextRunAt: (row: PipelineView) => row.next_run_at,
      createdAt: (row: PipelineView) => row.created_at,
      updatedAt: (row: PipelineView) => row.updated_at,
      runs: (row: PipelineView, args: ConnectionArgs & { kind?: string }, context: GraphqlContext) => runConnection(requireMember(context), row.id, args),
    },
    PipelineRun: {
      workflowId: (row: RunView) => row.workflow_id,
      pipelineId: (row: RunView) => row.pipeline_id,
      kind: (row: RunView) => upper(row.kind),
      trigger: (row: RunView) => upper(row.trigger),
      triggerDetail: (row: RunView) => row.trigger_detail,
      status: (row: RunView) => upper(row.status),
      startedAt: (row: RunView) => row.started_at,
      finishedAt: (row: RunView) => row.finished_at,
    },
    PipelineStepResult: {
      stepId: (row: StepView) => row.step_id,
      status: (row: StepView) => upper(row.status),
      dependsOn: (row: StepView) => row.depends_on,
      outputDataset: (row: StepView) => row.output_dataset,
      snapshotId: (row: StepView) => row.snapshot_id_exact,
      sampleRows: (row: StepView) => row.sample_rows,
      startedAt: (row: StepView) => row.started_at,
      finishedAt: (row: StepView) => row.finished_at,
      durationMs: (row: StepView) => row.duration_ms,
      sqlMs: (row: StepView) => row.sql_ms,
    },
  };
}

// GraphQL: pipelines and their runs with step results ("runs" are what
// GraphQL consumers query), as Relay connections both ways, and the
// mutations that start a run. Access as the REST routes: a bearer member of
// the tenant reads; starting a run takes `admin` or `pipeline_editor` (as
// POST /api/v1/temporal/workflows/pipeline and /pipelines/{id}/sandbox);
// API keys get FORBIDDEN. Snapshot ids are strings (exact 64-bit); a step's
// snapshot is the lake's, under the lakehouse's read rule.
import DataLoader from 'dataloader';
import {
  badInput, type ConnectionArgs, type GraphqlContext, isUuid, keysetConnection, requireMember, requireRole,
} from 'agent-platform/sdk';
import type { LakehouseApi } from '../lakehouse/api.ts';
import { EDITOR_ROLES } from './access.ts';
import type { PipelineService } from './services/pipelines.ts';
import type { RunService } from './services/runs.ts';
import type { RunKind } from './store/tables.ts';
import type { PipelineView, RunView, StepView } from './views/view.ts';

export const typeDefs = /* GraphQL */ `
  "Where a pipeline stands: edited (DRAFT), its DAG checked (VALIDATED), running on its schedule or sensor (ACTIVE), or PAUSED."
  enum PipelineState { DRAFT VALIDATED ACTIVE PAUSED }
  "SANDBOX runs write the sandbox namespace with a row cap; PRODUCTION runs write the derived datasets."
  enum PipelineRunKind { SANDBOX PRODUCTION }
  "What started a run."
  enum PipelineRunTrigger { MANUAL SCHEDULE SENSOR ORCHESTRATOR }
  "Where a run stands."
  enum PipelineRunStatus { RUNNING SUCCEEDED FAILED CANCELLED }
  "Where a step of a run stands (SKIPPED: downstream of a failed step)."
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
    "The pipeline's runs, newest first (a pipelineId in the filter other than this pipeline's selects none)."
    runs(filter: PipelineRunFilter, first: Int, after: String, last: Int, before: String): PipelineRunConnection!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  "A run of a pipeline version: its status, timings and the result of each step."
  type PipelineRun {
    "The run id (the orchestrator's workflow id of REST)."
    id: ID!
    pipelineId: ID!
    "The pipeline (null once deleted)."
    pipeline: Pipeline
    "The pipeline version it ran."
    version: Int!
    kind: PipelineRunKind!
    trigger: PipelineRunTrigger!
    "What the trigger recorded (the schedule occurrence, the snapshots the sensor saw)."
    triggerDetail: JSON!
    status: PipelineRunStatus!
    error: String
    "Its steps in DAG order, each with its status, output and timings."
    steps: [PipelineStepResult!]!
    startedAt: DateTime!
    finishedAt: DateTime
    "From start to end; null while it runs."
    durationMs: Int
  }

  "One step of a run: its status, what it wrote and its timings."
  type PipelineStepResult {
    "The step's id in the pipeline version the run ran."
    stepId: ID!
    status: PipelineStepStatus!
    "The step ids it waits for."
    dependsOn: [String!]!
    outputDataset: String
    "The snapshot the step wrote (exact decimal string)."
    snapshotId: ID
    "The snapshot the step wrote, of outputDataset (under the lakehouse's read rule; null when none, or vacuumed by retention)."
    snapshot: DatasetSnapshot
    rows: Float
    schema: JSON
    sampleRows: JSON
    error: String
    startedAt: DateTime
    finishedAt: DateTime
    durationMs: Int
    "Time spent in the step's SQL statement."
    sqlMs: Int
  }

  "Conditions on pipeline runs (AND)."
  input PipelineRunFilter {
    pipelineId: ID
    kind: PipelineRunKind
  }

  type PipelineEdge { node: Pipeline! cursor: String! }
  type PipelineConnection {
    edges: [PipelineEdge!]!
    pageInfo: PageInfo!
    "Every pipeline of the tenant."
    totalCount: Int!
  }
  type PipelineRunEdge { node: PipelineRun! cursor: String! }
  type PipelineRunConnection {
    edges: [PipelineRunEdge!]!
    pageInfo: PageInfo!
    "Runs that match the filter."
    totalCount: Int!
  }

  extend type Query {
    "The tenant's pipelines, oldest first."
    pipelines(first: Int, after: String, last: Int, before: String): PipelineConnection!
    "A pipeline (null when absent)."
    pipeline(id: ID!): Pipeline
    "Runs of every pipeline, newest first."
    pipelineRuns(filter: PipelineRunFilter, first: Int, after: String, last: Int, before: String): PipelineRunConnection!
    "A pipeline run with its steps (null when absent)."
    pipelineRun(id: ID!): PipelineRun
  }

  type Mutation {
    """
    Start a production run of an active pipeline now (its activated version), as
    POST /api/v1/temporal/workflows/pipeline: admin or pipeline_editor; 409
    PIPELINE_NOT_ACTIVE, RUN_IN_PROGRESS while a run is live; 404 PIPELINE_NOT_FOUND.
    """
    runPipeline(pipelineId: ID!): PipelineRun!
    """
    Start a sandbox run of a version (default: the current definition, versioned
    when changed) into the sandbox namespace, as POST /api/v1/pipelines/{id}/sandbox:
    admin or pipeline_editor.
    """
    runPipelineSandbox(pipelineId: ID!, version: Int): PipelineRun!
  }
`;

/** The field the pipelines plugin adds to the transforms plugin's TransformRun (when both are loaded). */
export const transformRunTypeDefs = /* GraphQL */ `
  extend type TransformRun {
    "The pipeline run that ran this transform as a step (null when none, or gone)."
    pipelineRun: PipelineRun
  }
`;

const upper = (value: string) => value.toUpperCase();

type RunFilterArg = { pipelineId?: string | null; kind?: string | null } | null | undefined;

/** The store's filter of a PipelineRunFilter; `null` when it can select no run (a pipeline id of another pipeline). */
function runFilter(filter: RunFilterArg, pipelineId?: string): { pipelineId?: string; kind?: RunKind } | null {
  const wanted = filter?.pipelineId ?? undefined;
  if (wanted !== undefined && !isUuid(wanted)) throw badInput('filter.pipelineId is not a valid pipeline id');
  if (pipelineId !== undefined && wanted !== undefined && wanted !== pipelineId) return null;
  return { pipelineId: pipelineId ?? wanted, kind: filter?.kind?.toLowerCase() as RunKind | undefined };
}

const validUuidKey = (key: unknown) => typeof key === 'string' && isUuid(key);

function pipelineIdArg(value: string): string {
  if (!isUuid(value)) throw badInput('pipelineId is not a valid pipeline id');
  return value;
}

export function resolvers(pipelines: PipelineService, runs: RunService, lake: () => LakehouseApi) {
  // One loader per request and tenant: a page of runs reads its pipelines in one query.
  const loaders = new WeakMap<object, Map<string, DataLoader<string, PipelineView | undefined>>>();
  const pipelineOf = (context: GraphqlContext, tenantId: string, id: string) => {
    let byTenant = loaders.get(context.request);
    if (!byTenant) loaders.set(context.request, (byTenant = new Map()));
    let loader = byTenant.get(tenantId);
    if (!loader) byTenant.set(tenantId, (loader = new DataLoader((ids: readonly string[]) => pipelines.findMany(tenantId, ids))));
    return loader.load(id);
  };

  const runConnection = (tenantId: string, args: ConnectionArgs & { filter?: RunFilterArg }, pipelineId?: string) => {
    const filter = runFilter(args.filter, pipelineId);
    return keysetConnection(args, {
      keyOf: (run: RunView) => run.id,
      validKey: validUuidKey,
      fetch: (page) => (filter ? runs.page(tenantId, filter, page) : Promise.resolve([])),
      count: () => (filter ? runs.count(tenantId, filter) : 0),
    });
  };

  const findRun = (tenantId: string, id: string) => (isUuid(id) ? runs.find(tenantId, id) : null);

  return {
    Query: {
      pipelines(_: unknown, args: ConnectionArgs, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return keysetConnection(args, {
          keyOf: (row: PipelineView) => row.id,
          validKey: validUuidKey,
          fetch: (page) => pipelines.page(tenantId, page),
          count: () => pipelines.count(tenantId),
        });
      },
      async pipeline(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return isUuid(args.id) ? (await pipelines.findMany(tenantId, [args.id]))[0] ?? null : null;
      },
      pipelineRuns(_: unknown, args: ConnectionArgs & { filter?: RunFilterArg }, context: GraphqlContext) {
        return runConnection(requireMember(context), args);
      },
      pipelineRun(_: unknown, args: { id: string }, context: GraphqlContext) {
        return findRun(requireMember(context), args.id);
      },
    },
    Mutation: {
      async runPipeline(_: unknown, args: { pipelineId: string }, context: GraphqlContext) {
        const tenantId = requireRole(context, EDITOR_ROLES);
        const run = await runs.runNow(tenantId, pipelineIdArg(args.pipelineId), context.principal!.sub);
        return runs.find(tenantId, run.id);
      },
      async runPipelineSandbox(_: unknown, args: { pipelineId: string; version?: number | null }, context: GraphqlContext) {
        const tenantId = requireRole(context, EDITOR_ROLES);
        const started = await runs.startSandbox(tenantId, pipelineIdArg(args.pipelineId), args.version ?? undefined, context.principal!.sub);
        return runs.find(tenantId, started.workflow_id);
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
      runs: (row: PipelineView, args: ConnectionArgs & { filter?: RunFilterArg }, context: GraphqlContext) => runConnection(requireMember(context), args, row.id),
    },
    PipelineRun: {
      pipelineId: (row: RunView) => row.pipeline_id,
      pipeline: async (row: RunView, _: unknown, context: GraphqlContext) => (await pipelineOf(context, requireMember(context), row.pipeline_id)) ?? null,
      kind: (row: RunView) => upper(row.kind),
      trigger: (row: RunView) => upper(row.trigger),
      triggerDetail: (row: RunView) => row.trigger_detail,
      status: (row: RunView) => upper(row.status),
      startedAt: (row: RunView) => row.started_at,
      finishedAt: (row: RunView) => row.finished_at,
      durationMs: (row: RunView) => (row.finished_at ? row.finished_at.getTime() - row.started_at.getTime() : null),
    },
    PipelineStepResult: {
      stepId: (row: StepView) => row.step_id,
      status: (row: StepView) => upper(row.status),
      dependsOn: (row: StepView) => row.depends_on,
      outputDataset: (row: StepView) => row.output_dataset,
      snapshotId: (row: StepView) => row.snapshot_id_exact,
      snapshot: (row: StepView, _: unknown, context: GraphqlContext) => lake().snapshotField(context, row.output_dataset, row.snapshot_id_exact),
      sampleRows: (row: StepView) => row.sample_rows,
      startedAt: (row: StepView) => row.started_at,
      finishedAt: (row: StepView) => row.finished_at,
      durationMs: (row: StepView) => row.duration_ms,
      sqlMs: (row: StepView) => row.sql_ms,
    },
  };
}

/**
 * Resolvers of transformRunTypeDefs. The parent is the transforms plugin's run
 * row; its `pipeline_run_id` is free text (an orchestrator may send any), so a
 * value that is no run id is no run. Guarded as the REST read of a run.
 */
export function transformRunResolvers(runs: RunService) {
  return {
    TransformRun: {
      pipelineRun(row: { pipeline_run_id?: string | null }, _: unknown, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return row.pipeline_run_id && isUuid(row.pipeline_run_id) ? runs.find(tenantId, row.pipeline_run_id) : null;
      },
    },
  };
}

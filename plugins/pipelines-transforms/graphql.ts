// GraphQL: transforms and their runs ("runs" are what GraphQL consumers
// query), as Relay connections both ways, and the mutation that materializes
// a transform. Access as the REST routes: a bearer member of the tenant reads;
// materializing takes `admin` or `pipeline_editor` (as POST
// /api/v1/transforms/{id}/materialize); API keys get FORBIDDEN. Run and
// snapshot ids are strings (exact 64-bit); a run's snapshot is the lake's,
// under the lakehouse's read rule.
import DataLoader from 'dataloader';
import {
  badInput, type ConnectionArgs, type GraphqlContext, isUuid, keysetConnection, requireMember, requireRole,
} from 'agent-platform/sdk';
import type { LakehouseApi } from '../lakehouse/api.ts';
import { EDITOR_ROLES } from './access.ts';
import type { ExecutionService } from './services/execution.ts';
import type { RunService } from './services/runs.ts';
import type { TransformService } from './services/transforms.ts';
import type { RunFilter, RunRow } from './store/runs.ts';
import type { RunStatus } from './store/tables.ts';
import type { TransformRow } from './store/transforms.ts';

export const typeDefs = /* GraphQL */ `
  "How a transform lands: replaces the dataset (TABLE) or merges new rows by its unique key (INCREMENTAL)."
  enum TransformMaterialization { TABLE INCREMENTAL }
  "ARCHIVED transforms never run and keep their history."
  enum TransformStatus { ACTIVE ARCHIVED }
  "Where a transform run stands."
  enum TransformRunStatus { QUEUED RUNNING SUCCEEDED FAILED CANCELLED }
  "What started a transform run."
  enum TransformRunTrigger { MANUAL SCHEDULE PIPELINE EXECUTE MATERIALIZE }
  "The level of a run's log line."
  enum TransformRunLogLevel { INFO ERROR }

  "A column of a transform's output."
  type TransformColumn { name: String! type: String! }

  "A SQL transform: a SELECT over datasets materialized into a derived dataset."
  type Transform {
    id: ID!
    name: String!
    description: String!
    sql: String!
    "Named parameters in order ($N is the Nth)."
    parameters: JSON!
    outputDataset: String!
    materialization: TransformMaterialization!
    uniqueKey: [String!]!
    status: TransformStatus!
    "Lineage: the datasets it reads."
    inputs: [String!]!
    columns: [TransformColumn!]!
    "The transform's runs, newest first (a transformId in the filter other than this transform's selects none)."
    runs(filter: TransformRunFilter, first: Int, after: String, last: Int, before: String): TransformRunConnection!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  "Why a run failed."
  type TransformRunError { code: String! message: String! }

  "A line of a run's log."
  type TransformRunLogLine {
    at: DateTime!
    level: TransformRunLogLevel!
    message: String!
  }

  "A run of a transform: its status, output, timings and log."
  type TransformRun {
    "Decimal string."
    id: ID!
    transformId: ID!
    "The transform (null once deleted)."
    transform: Transform
    "The external orchestrator's run id that started it (/execute), free text."
    orchestratorRunId: ID
    "The pipeline run that ran it as a step (see pipelineRun, when the pipelines plugin is loaded)."
    pipelineRunId: ID
    trigger: TransformRunTrigger!
    status: TransformRunStatus!
    outputDataset: String!
    rows: Float
    "The snapshot it wrote (exact decimal string)."
    snapshotId: ID
    "The snapshot it wrote, of outputDataset (under the lakehouse's read rule; null when none, or vacuumed by retention)."
    snapshot: DatasetSnapshot
    columns: [TransformColumn!]
    error: TransformRunError
    createdAt: DateTime!
    startedAt: DateTime
    finishedAt: DateTime
    "From start to end; null until it ended."
    durationMs: Int
    "The run's log lines, oldest first."
    logs: [TransformRunLogLine!]!
  }

  "Conditions on transform runs (AND)."
  input TransformRunFilter {
    transformId: ID
    status: TransformRunStatus
  }

  type TransformEdge { node: Transform! cursor: String! }
  type TransformConnection {
    edges: [TransformEdge!]!
    pageInfo: PageInfo!
    "Every transform of the tenant."
    totalCount: Int!
  }
  type TransformRunEdge { node: TransformRun! cursor: String! }
  type TransformRunConnection {
    edges: [TransformRunEdge!]!
    pageInfo: PageInfo!
    "Runs that match the filter."
    totalCount: Int!
  }

  extend type Query {
    "The tenant's transforms, by id."
    transforms(first: Int, after: String, last: Int, before: String): TransformConnection!
    "A transform (null when absent)."
    transform(id: ID!): Transform
    "Runs of every transform, newest first."
    transformRuns(filter: TransformRunFilter, first: Int, after: String, last: Int, before: String): TransformRunConnection!
    "A transform run (null when absent)."
    transformRun(id: ID!): TransformRun
  }

  type Mutation {
    """
    Queue a run of the transform into its output dataset (one snapshot) and
    return the queued run, as POST /api/v1/transforms/{id}/materialize with
    wait=false: admin or pipeline_editor; 404 TRANSFORM_NOT_FOUND.
    """
    materializeTransform(transformId: ID!, "Values by name, replacing the declared defaults." parameters: JSON): TransformRun!
  }
`;

const RUN_ID = /^\d{1,19}$/;
const upper = (value: string) => value.toUpperCase();

type RunNode = RunRow & { snapshot_id_exact?: string | null };
/** The run's snapshot id as a decimal string (a run row of the service carries it exact). */
const snapshotIdOf = (row: RunNode) => (row.snapshot_id_exact !== undefined ? row.snapshot_id_exact : row.snapshot_id);

type RunFilterArg = { transformId?: string | null; status?: string | null } | null | undefined;

/** The store's filter of a TransformRunFilter; `null` when it can select no run (a transform id of another transform). */
function runFilter(filter: RunFilterArg, transformId?: string): RunFilter | null {
  const wanted = filter?.transformId ?? undefined;
  if (wanted !== undefined && !isUuid(wanted)) throw badInput('filter.transformId is not a valid transform id');
  if (transformId !== undefined && wanted !== undefined && wanted !== transformId) return null;
  return { transformId: transformId ?? wanted, status: filter?.status?.toLowerCase() as RunStatus | undefined };
}

function checkParameters(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length > 100) {
    throw badInput('parameters is an object of at most 100 values by name');
  }
  return value as Record<string, unknown>;
}

export function resolvers(transforms: TransformService, runs: RunService, execution: ExecutionService, lake: () => LakehouseApi) {
  // One loader per request and tenant: a page of runs reads its transforms in one query.
  const loaders = new WeakMap<object, Map<string, DataLoader<string, TransformRow | undefined>>>();
  const transformOf = (context: GraphqlContext, tenantId: string, id: string) => {
    let byTenant = loaders.get(context.request);
    if (!byTenant) loaders.set(context.request, (byTenant = new Map()));
    let loader = byTenant.get(tenantId);
    if (!loader) byTenant.set(tenantId, (loader = new DataLoader((ids: readonly string[]) => transforms.findMany(tenantId, ids))));
    return loader.load(id);
  };

  const runConnection = (tenantId: string, args: ConnectionArgs & { filter?: RunFilterArg }, transformId?: string) => {
    const filter = runFilter(args.filter, transformId);
    return keysetConnection(args, {
      keyOf: (run: RunRow) => run.id,
      validKey: (key) => typeof key === 'string' && RUN_ID.test(key),
      fetch: (page) => (filter ? runs.page(tenantId, filter, page) : Promise.resolve([])),
      count: () => (filter ? runs.count(tenantId, filter) : 0),
    });
  };
  const nullWhenAbsent = async <T>(work: () => Promise<T>): Promise<T | null> => {
    try {
      return await work();
    } catch (err) {
      if ((err as { output?: { statusCode: number } }).output?.statusCode === 404) return null;
      throw err;
    }
  };
  return {
    Query: {
      transforms(_: unknown, args: ConnectionArgs, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return keysetConnection(args, {
          keyOf: (row: TransformRow) => row.id,
          validKey: (key) => typeof key === 'string' && isUuid(key),
          fetch: (page) => transforms.page(tenantId, page),
          count: () => transforms.count(tenantId),
        });
      },
      async transform(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return isUuid(args.id) ? (await transforms.findMany(tenantId, [args.id]))[0] ?? null : null;
      },
      transformRuns(_: unknown, args: ConnectionArgs & { filter?: RunFilterArg }, context: GraphqlContext) {
        return runConnection(requireMember(context), args);
      },
      transformRun(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return RUN_ID.test(args.id) ? nullWhenAbsent(() => runs.get(tenantId, args.id)) : null;
      },
    },
    Mutation: {
      materializeTransform(_: unknown, args: { transformId: string; parameters?: unknown }, context: GraphqlContext) {
        const tenantId = requireRole(context, EDITOR_ROLES);
        if (!isUuid(args.transformId)) throw badInput('transformId is not a valid transform id');
        const parameters = checkParameters(args.parameters);
        return execution.materialize(tenantId, args.transformId, { parameters, wait: false }, context.principal!.sub);
      },
    },
    Transform: {
      outputDataset: (row: TransformRow) => row.output_dataset,
      materialization: (row: TransformRow) => upper(row.materialization),
      uniqueKey: (row: TransformRow) => row.unique_key,
      status: (row: TransformRow) => upper(row.status),
      createdAt: (row: TransformRow) => row.created_at,
      updatedAt: (row: TransformRow) => row.updated_at,
      runs: (row: TransformRow, args: ConnectionArgs & { filter?: RunFilterArg }, context: GraphqlContext) => runConnection(requireMember(context), args, row.id),
    },
    TransformRun: {
      transformId: (row: RunNode) => row.transform_id,
      async transform(row: RunNode, _: unknown, context: GraphqlContext) {
        return (await transformOf(context, requireMember(context), row.transform_id)) ?? null;
      },
      orchestratorRunId: (row: RunNode) => row.orchestrator_run_id,
      pipelineRunId: (row: RunNode) => row.pipeline_run_id,
      trigger: (row: RunNode) => upper(row.trigger),
      status: (row: RunNode) => upper(row.status),
      outputDataset: (row: RunNode) => row.output_dataset,
      snapshotId: snapshotIdOf,
      snapshot: (row: RunNode, _: unknown, context: GraphqlContext) => lake().snapshotField(context, row.output_dataset, snapshotIdOf(row)),
      createdAt: (row: RunNode) => row.created_at,
      startedAt: (row: RunNode) => row.started_at,
      finishedAt: (row: RunNode) => row.finished_at,
      durationMs: (row: RunNode) => (row.started_at && row.finished_at ? row.finished_at.getTime() - row.started_at.getTime() : null),
      async logs(row: RunNode, _: unknown, context: GraphqlContext) {
        return (await runs.logs(requireMember(context), row.id)).items.map((line) => ({ ...line, level: upper(line.level) }));
      },
    },
  };
}

// GraphQL: transforms and their runs ("runs" are what GraphQL consumers
// query), as Relay connections. Access as the REST routes: a bearer member of
// the tenant reads; API keys get FORBIDDEN. Run and snapshot ids are strings
// (exact 64-bit).
import { badInput, type ConnectionArgs, decodeCursor, type GraphqlContext, pageSize, requireMember, toConnection, UUID_PATTERN } from 'agent-platform/sdk';
import type { RunService } from './services/runs.ts';
import type { TransformService } from './services/transforms.ts';
import type { RunRow } from './store/runs.ts';
import type { TransformRow } from './store/transforms.ts';

export const typeDefs = /* GraphQL */ `
  enum TransformMaterialization { TABLE INCREMENTAL }
  enum TransformStatus { ACTIVE ARCHIVED }
  enum TransformRunStatus { QUEUED RUNNING SUCCEEDED FAILED CANCELLED }
  enum TransformRunTrigger { MANUAL SCHEDULE PIPELINE EXECUTE MATERIALIZE }

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
    "Newest first."
    runs(first: Int, after: String): TransformRunConnection!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type TransformRunError { code: String! message: String! }

  type TransformRun {
    "Decimal string."
    id: ID!
    transformId: ID!
    orchestratorRunId: String
    pipelineRunId: String
    trigger: TransformRunTrigger!
    status: TransformRunStatus!
    outputDataset: String!
    rows: Float
    "The snapshot it wrote (exact decimal string)."
    snapshotId: String
    columns: [TransformColumn!]
    error: TransformRunError
    createdAt: DateTime!
    startedAt: DateTime
    finishedAt: DateTime
  }

  type TransformEdge { node: Transform! cursor: String! }
  type TransformConnection { edges: [TransformEdge!]! pageInfo: PageInfo! }
  type TransformRunEdge { node: TransformRun! cursor: String! }
  type TransformRunConnection { edges: [TransformRunEdge!]! pageInfo: PageInfo! }

  extend type Query {
    "The tenant's transforms."
    transforms(first: Int, after: String): TransformConnection!
    "A transform (null when absent)."
    transform(id: ID!): Transform
    "Transform runs, newest first: of one transform, or of every transform."
    transformRuns(transformId: ID, first: Int, after: String): TransformRunConnection!
    "A transform run (null when absent)."
    transformRun(id: ID!): TransformRun
  }
`;

const RUN_ID = /^\d{1,19}$/;
const upper = (value: string) => value.toUpperCase();

function checked(value: string | undefined | null, pattern: RegExp, what: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!pattern.test(value)) throw badInput(`Malformed ${what}`);
  return value;
}

export function resolvers(transforms: TransformService, runs: RunService) {
  const runConnection = async (tenantId: string, transformId: string | undefined, args: ConnectionArgs) => {
    const size = pageSize(args);
    const before = checked(decodeCursor<string>(args.after), RUN_ID, 'cursor');
    return toConnection(await runs.page(tenantId, before, size + 1, transformId), size, (run) => run.id, Boolean(args.after));
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
      async transforms(_: unknown, args: ConnectionArgs, context: GraphqlContext) {
        const tenantId = requireMember(context);
        const size = pageSize(args);
        const after = checked(decodeCursor<string>(args.after), UUID_PATTERN, 'cursor');
        return toConnection(await transforms.page(tenantId, after, size + 1), size, (row) => row.id, Boolean(args.after));
      },
      transform(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        const id = checked(args.id, UUID_PATTERN, 'id')!;
        return nullWhenAbsent(() => transforms.get(tenantId, id));
      },
      transformRuns(_: unknown, args: ConnectionArgs & { transformId?: string }, context: GraphqlContext) {
        return runConnection(requireMember(context), checked(args.transformId, UUID_PATTERN, 'transformId'), args);
      },
      transformRun(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        const id = checked(args.id, RUN_ID, 'id')!;
        return nullWhenAbsent(() => runs.get(tenantId, id));
      },
    },
    Transform: {
      outputDataset: (row: TransformRow) => row.output_dataset,
      materialization: (row: TransformRow) => upper(row.materialization),
      uniqueKey: (row: TransformRow) => row.unique_key,
      status: (row: TransformRow) => upper(row.status),
      createdAt: (row: TransformRow) => row.created_at,
      updatedAt: (row: TransformRow) => row.updated_at,
      runs: (row: TransformRow, args: ConnectionArgs, context: GraphqlContext) => runConnection(requireMember(context), row.id, args),
    },
    TransformRun: {
      transformId: (row: RunRow) => row.transform_id,
      orchestratorRunId: (row: RunRow) => row.orchestrator_run_id,
      pipelineRunId: (row: RunRow) => row.pipeline_run_id,
      trigger: (row: RunRow) => upper(row.trigger),
      status: (row: RunRow) => upper(row.status),
      outputDataset: (row: RunRow) => row.output_dataset,
      snapshotId: (row: { snapshot_id_exact?: string | null; snapshot_id: unknown }) => (row.snapshot_id_exact !== undefined ? row.snapshot_id_exact : row.snapshot_id),
      createdAt: (row: RunRow) => row.created_at,
      startedAt: (row: RunRow) => row.started_at,
      finishedAt: (row: RunRow) => row.finished_at,
    },
  };
}

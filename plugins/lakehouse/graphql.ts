// GraphQL: datasets (the tenant's and the shared ones) with their snapshots,
// as Relay connections both ways. Access as the REST routes (GET
// /api/v1/datasets…): a bearer member of the tenant; API keys get FORBIDDEN.
// Snapshot ids are IDs (decimal strings: GraphQL's Int is 32-bit; the exact
// 64-bit id is what identifies). A dataset's latest and a snapshot's parent
// snapshot are read in one query per request (DataLoader).
import type { Request } from '@hapi/hapi';
import DataLoader from 'dataloader';
import {
  type ConnectionArgs, type GraphqlContext, keysetConnection, requireMember,
} from 'agent-platform/sdk';
import type { DatasetService } from './services/datasets.ts';
import type { DatasetRow, SnapshotRow } from './store/datasets.ts';

export const typeDefs = /* GraphQL */ `
  enum DatasetNamespace {
    RAW
    DERIVED
    REGISTRY
    SANDBOX
  }

  type DatasetColumn {
    name: String!
    "One of text, bigint, double, numeric, boolean, timestamptz, date, uuid, jsonb."
    type: String!
  }

  "A snapshot of a dataset: what one write (a sync, a materialization) made it."
  type DatasetSnapshot {
    "The 64-bit snapshot id as a decimal string (exact)."
    id: ID!
    "The snapshot this one followed (null for the first)."
    parentSnapshotId: ID
    "The snapshot this one followed (null for the first, or when retention has removed it)."
    parentSnapshot: DatasetSnapshot
    "overwrite, append or append_dedup."
    operation: String!
    rowsAdded: Float!
    rowsRemoved: Float!
    rowCount: Float!
    summary: JSON!
    createdAt: DateTime!
  }

  type DatasetSnapshotEdge {
    node: DatasetSnapshot!
    cursor: String!
  }

  "A page of a dataset's snapshots."
  type DatasetSnapshotConnection {
    edges: [DatasetSnapshotEdge!]!
    pageInfo: PageInfo!
    "How many snapshots the dataset has."
    totalCount: Int!
  }

  "A table of the lake: <namespace>.<tenant_or_layer>.<table>."
  type Dataset {
    "<namespace>.<tenant_or_layer>.<table>."
    id: ID!
    namespace: DatasetNamespace!
    layer: String!
    table: String!
    shared: Boolean!
    "What writes it: source_stream, transform, pipeline, sandbox or registry (producerId is of that kind)."
    producerKind: String!
    "The id of the producer (of the kind producerKind names)."
    producerId: ID!
    columns: [DatasetColumn!]!
    primaryKey: [String!]!
    rowCount: Float!
    "The id of the snapshot the dataset is at (null before its first write)."
    latestSnapshotId: ID
    "The snapshot the dataset is at (null before its first write)."
    latestSnapshot: DatasetSnapshot
    "Newest first."
    snapshots(first: Int, after: String, last: Int, before: String): DatasetSnapshotConnection!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type DatasetEdge {
    node: Dataset!
    cursor: String!
  }

  "A page of datasets."
  type DatasetConnection {
    edges: [DatasetEdge!]!
    pageInfo: PageInfo!
    "How many datasets the filter matches."
    totalCount: Int!
  }

  "Which datasets to list."
  input DatasetFilter {
    "Only datasets of this namespace."
    namespace: DatasetNamespace
  }

  extend type Query {
    "Datasets the tenant may read (its own and the shared ones), by id."
    datasets(filter: DatasetFilter, first: Int, after: String, last: Int, before: String): DatasetConnection!
    "A dataset under the read rule (null when absent or not a dataset id; an error when not readable)."
    dataset(id: ID!): Dataset
  }
`;

const DATASET_KEY = /^[^\u0000]{1,256}$/;
const SNAPSHOT_KEY = /^\d{1,19}$/;
const validKey = (pattern: RegExp) => (key: unknown) => typeof key === 'string' && pattern.test(key);

/** Bad dataset ids and absent datasets are both "not found" for a lookup. */
function absent(err: unknown): boolean {
  const output = (err as { output?: { statusCode: number; payload?: { code?: string } } }).output;
  return output?.statusCode === 404 || output?.payload?.code === 'DATASET_ID_INVALID';
}

export function resolvers(datasets: DatasetService) {
  // One snapshot loader per request: a page of datasets reads its latest snapshots in one query.
  const perRequest = new WeakMap<Request, DataLoader<string, SnapshotRow | null>>();
  function snapshots(context: GraphqlContext, tenantId: string) {
    let loader = perRequest.get(context.request);
    if (!loader) {
      loader = new DataLoader(async (keys: readonly string[]) => {
        const wanted = keys.map((key) => {
          const [ref, snapshotId] = key.split(':');
          return { ref: Number(ref), snapshotId: snapshotId! };
        });
        const rows = await datasets.snapshotsByIds(tenantId, wanted);
        const byKey = new Map(rows.map((row) => [`${row.dataset_ref}:${row.snapshot_id}`, row]));
        return keys.map((key) => byKey.get(key) ?? null);
      });
      perRequest.set(context.request, loader);
    }
    return loader;
  }
  const snapshotOf = (context: GraphqlContext, ref: number, snapshotId: string | null) =>
    snapshotId === null ? null : snapshots(context, requireMember(context)).load(`${ref}:${snapshotId}`);

  return {
    Query: {
      async datasets(_: unknown, args: ConnectionArgs & { filter?: { namespace?: string | null } | null }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        const namespace = args.filter?.namespace?.toLowerCase();
        return keysetConnection(args, {
          keyOf: (row: DatasetRow) => row.dataset_id,
          validKey: validKey(DATASET_KEY),
          fetch: (page) => datasets.page(tenantId, namespace, page),
          count: () => datasets.count(tenantId, namespace),
        });
      },
      async dataset(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        try {
          return await datasets.readableRow(tenantId, args.id);
        } catch (err) {
          if (absent(err)) return null;
          throw err;
        }
      },
    },
    Dataset: {
      id: (row: DatasetRow) => row.dataset_id,
      namespace: (row: DatasetRow) => row.namespace.toUpperCase(),
      table: (row: DatasetRow) => row.table_name,
      producerKind: (row: DatasetRow) => row.producer_kind,
      producerId: (row: DatasetRow) => row.producer_id,
      columns: (row: DatasetRow) => row.columns.map(({ name, type }) => ({ name, type })),
      primaryKey: (row: DatasetRow) => row.primary_key,
      rowCount: (row: DatasetRow) => row.row_count,
      latestSnapshotId: (row: DatasetRow) => row.latest_snapshot_id,
      latestSnapshot: (row: DatasetRow, _: unknown, context: GraphqlContext) => snapshotOf(context, row.id, row.latest_snapshot_id),
      createdAt: (row: DatasetRow) => row.created_at,
      updatedAt: (row: DatasetRow) => row.updated_at,
      async snapshots(row: DatasetRow, args: ConnectionArgs, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return keysetConnection(args, {
          keyOf: (snapshot: SnapshotRow) => snapshot.snapshot_id,
          validKey: validKey(SNAPSHOT_KEY),
          fetch: (page) => datasets.snapshotPage(tenantId, row.id, page),
          count: () => row.snapshot_count,
        });
      },
    },
    DatasetSnapshot: {
      id: (row: SnapshotRow) => row.snapshot_id,
      parentSnapshotId: (row: SnapshotRow) => row.parent_snapshot_id,
      parentSnapshot: (row: SnapshotRow, _: unknown, context: GraphqlContext) => snapshotOf(context, row.dataset_ref, row.parent_snapshot_id),
      rowsAdded: (row: SnapshotRow) => row.rows_added,
      rowsRemoved: (row: SnapshotRow) => row.rows_removed,
      rowCount: (row: SnapshotRow) => row.row_count,
      createdAt: (row: SnapshotRow) => row.created_at,
    },
  };
}

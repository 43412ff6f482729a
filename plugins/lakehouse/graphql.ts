// GraphQL: datasets (the tenant's and the shared ones) with their snapshots,
// as Relay connections. Access as the REST routes (GET /api/v1/datasets…): a
// bearer member of the tenant; API keys get FORBIDDEN. Snapshot ids are
// strings (GraphQL's Int is 32-bit; the exact 64-bit id is what identifies).
import {
  badInput, type ConnectionArgs, decodeCursor, type GraphqlContext, pageSize, requireMember, toConnection,
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
    snapshotId: String!
    parentSnapshotId: String
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

  type DatasetSnapshotConnection {
    edges: [DatasetSnapshotEdge!]!
    pageInfo: PageInfo!
  }

  "A table of the lake: <namespace>.<tenant_or_layer>.<table>."
  type Dataset {
    id: String!
    namespace: DatasetNamespace!
    layer: String!
    table: String!
    shared: Boolean!
    producerKind: String!
    producerId: String!
    columns: [DatasetColumn!]!
    primaryKey: [String!]!
    rowCount: Float!
    latestSnapshotId: String
    "Newest first."
    snapshots(first: Int, after: String): DatasetSnapshotConnection!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type DatasetEdge {
    node: Dataset!
    cursor: String!
  }

  type DatasetConnection {
    edges: [DatasetEdge!]!
    pageInfo: PageInfo!
  }

  extend type Query {
    "Datasets the tenant may read (its own and the shared ones), by id."
    datasets(namespace: DatasetNamespace, first: Int, after: String): DatasetConnection!
    "A dataset under the read rule (null when absent; an error when not readable)."
    dataset(id: String!): Dataset
  }
`;

/** A cursor decodes to whatever its sender encoded: only what a page of ours could have produced goes on. */
function cursorOf(after: string | null | undefined, pattern: RegExp): string | undefined {
  const value = decodeCursor<string>(after);
  if (value !== undefined && (typeof value !== 'string' || !pattern.test(value))) {
    throw badInput('Malformed cursor');
  }
  return value;
}

export function resolvers(datasets: DatasetService) {
  return {
    Query: {
      async datasets(_: unknown, args: ConnectionArgs & { namespace?: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        const size = pageSize(args);
        const rows = await datasets.page(tenantId, cursorOf(args.after, /^[^\u0000]{1,256}$/), size + 1, args.namespace?.toLowerCase());
        return toConnection(rows, size, (row) => row.dataset_id, Boolean(args.after));
      },
      async dataset(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        try {
          return await datasets.readableRow(tenantId, args.id);
        } catch (err) {
          if ((err as { output?: { statusCode: number } }).output?.statusCode === 404) return null;
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
      createdAt: (row: DatasetRow) => row.created_at,
      updatedAt: (row: DatasetRow) => row.updated_at,
      async snapshots(row: DatasetRow, args: ConnectionArgs, context: GraphqlContext) {
        const tenantId = requireMember(context);
        const size = pageSize(args);
        const rows = await datasets.snapshotPage(tenantId, row.id, size + 1, cursorOf(args.after, /^\d{1,19}$/));
        return toConnection(rows, size, (snapshot) => snapshot.snapshot_id, Boolean(args.after));
      },
    },
    DatasetSnapshot: {
      snapshotId: (row: SnapshotRow) => row.snapshot_id,
      parentSnapshotId: (row: SnapshotRow) => row.parent_snapshot_id,
      rowsAdded: (row: SnapshotRow) => row.rows_added,
      rowsRemoved: (row: SnapshotRow) => row.rows_removed,
      rowCount: (row: SnapshotRow) => row.row_count,
      createdAt: (row: SnapshotRow) => row.created_at,
    },
  };
}

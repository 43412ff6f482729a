// GraphQL: sources with their streams and sync runs ("runs" are what GraphQL
// consumers query), as Relay connections. Access as the REST routes: a bearer
// member of the tenant reads; API keys get FORBIDDEN. Credential values are
// not in the schema at all; snapshot ids are strings (exact 64-bit).
import { badInput, type ConnectionArgs, decodeCursor, type GraphqlContext, isUuid, pageSize, requireMember, toConnection } from 'agent-platform/sdk';
import type { RunService } from './services/runs.ts';
import type { SourceService } from './services/sources.ts';
import type { StreamService } from './services/streams.ts';

export const typeDefs = /* GraphQL */ `
  enum SourceState { READY ACTIVE }
  enum SyncMode { FULL_REFRESH INCREMENTAL }
  enum StreamWriteMode { OVERWRITE APPEND APPEND_DEDUP }
  enum SyncRunStatus { QUEUED RUNNING SUCCEEDED PARTIAL FAILED }
  enum SyncRunTrigger { MANUAL SCHEDULE }
  enum SyncRunStreamStatus { PENDING SUCCEEDED FAILED }

  "A source made from a pattern (connector). Credential values are never exposed."
  type Source {
    id: ID!
    name: String!
    patternId: String!
    "The configuration without credential fields."
    sourceConfig: JSON!
    credentialRef: String
    credentialName: String
    "Declared credential fields that have a value."
    credentialFieldsSet: [String!]!
    state: SourceState!
    streams: [Stream!]!
    "Newest first."
    runs(first: Int, after: String): SyncRunConnection!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type Stream {
    id: ID!
    name: String!
    namespace: String
    schema: JSON!
    supportedSyncModes: [SyncMode!]!
    syncMode: SyncMode!
    writeMode: StreamWriteMode!
    cursorField: String
    primaryKey: [String!]!
    enabled: Boolean!
    "The dataset the stream lands in."
    destination: String!
    "Runtime state: the committed cursor and the last run."
    state: JSON!
  }

  type SyncRun {
    id: ID!
    sourceId: ID!
    "The orchestrator run id (the pg-boss job)."
    workflowId: String
    trigger: SyncRunTrigger!
    status: SyncRunStatus!
    isTerminal: Boolean!
    attempts: Int!
    rowsRead: Float!
    rowsAdded: Float!
    rowsRemoved: Float!
    error: String
    streams: [SyncRunStream!]!
    createdAt: DateTime!
    startedAt: DateTime
    finishedAt: DateTime
  }

  type SyncRunStream {
    streamId: ID!
    streamName: String!
    namespace: String
    destination: String!
    status: SyncRunStreamStatus!
    rowsRead: Float!
    rowsAdded: Float!
    rowsRemoved: Float!
    "The snapshot the write left the dataset at (exact decimal string)."
    snapshotId: String
    cursorBefore: String
    cursorAfter: String
    error: String
  }

  type SourceEdge { node: Source! cursor: String! }
  type SourceConnection { edges: [SourceEdge!]! pageInfo: PageInfo! }
  type SyncRunEdge { node: SyncRun! cursor: String! }
  type SyncRunConnection { edges: [SyncRunEdge!]! pageInfo: PageInfo! }

  extend type Query {
    "The tenant's sources."
    sources(first: Int, after: String): SourceConnection!
    "A source (null when absent)."
    source(id: ID!): Source
    "Sync runs, newest first: of one source, or of every source."
    runs(sourceId: ID, first: Int, after: String): SyncRunConnection!
    "A sync run (null when absent)."
    run(id: ID!): SyncRun
  }
`;

const upper = (value: string) => value.toUpperCase();

function uuidArg(value: string | undefined | null): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isUuid(value)) throw badInput('Malformed id');
  return value;
}

function runCursor(after: string | null | undefined): { createdAt: string; id: string } | undefined {
  const value = decodeCursor<string>(after);
  if (value === undefined) return undefined;
  const [createdAt, id] = typeof value === 'string' ? value.split('|') : [];
  if (!createdAt || Number.isNaN(Date.parse(createdAt)) || !id || !isUuid(id)) throw badInput('Malformed cursor');
  return { createdAt, id };
}

interface RunNode { id: string; source_id: string; created_at: Date; status: string; trigger: string }
interface SourceNode { id: string; offset: number; pattern_id: string; state: string }

export function resolvers(sources: SourceService, streams: StreamService, runs: RunService) {
  const runConnection = async (tenantId: string, sourceId: string | undefined, args: ConnectionArgs) => {
    const size = pageSize(args);
    const rows = await runs.page(tenantId, sourceId, runCursor(args.after), size + 1);
    return toConnection(rows, size, (run) => `${run.created_at.toISOString()}|${run.id}`, Boolean(args.after));
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
      async sources(_: unknown, args: ConnectionArgs, context: GraphqlContext) {
        const tenantId = requireMember(context);
        const size = pageSize(args);
        const offset = decodeCursor<number>(args.after) ?? 0;
        if (!Number.isInteger(offset) || offset < 0 || offset > 1_000_000) throw badInput('Malformed cursor');
        return toConnection(await sources.page(tenantId, offset, size + 1), size, (source) => source.offset, Boolean(args.after));
      },
      source(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return nullWhenAbsent(() => sources.get(tenantId, uuidArg(args.id)!));
      },
      runs(_: unknown, args: ConnectionArgs & { sourceId?: string }, context: GraphqlContext) {
        return runConnection(requireMember(context), uuidArg(args.sourceId), args);
      },
      run(_: unknown, args: { id: string }, context: GraphqlContext) {
        return runs.get(requireMember(context), uuidArg(args.id)!);
      },
    },
    Source: {
      patternId: (row: SourceNode) => row.pattern_id,
      sourceConfig: (row: { source_config: unknown }) => row.source_config,
      credentialRef: (row: { credential_ref: string | null }) => row.credential_ref,
      credentialName: (row: { credential_name: string | null }) => row.credential_name,
      credentialFieldsSet: (row: { credential_fields_set: string[] }) => row.credential_fields_set,
      state: (row: SourceNode) => upper(row.state),
      createdAt: (row: { created_at: Date }) => row.created_at,
      updatedAt: (row: { updated_at: Date }) => row.updated_at,
      async streams(row: SourceNode, _: unknown, context: GraphqlContext) {
        return (await streams.list(requireMember(context), row.id)).items;
      },
      runs: (row: SourceNode, args: ConnectionArgs, context: GraphqlContext) => runConnection(requireMember(context), row.id, args),
    },
    Stream: {
      supportedSyncModes: (row: { supported_sync_modes: string[] }) => row.supported_sync_modes.map(upper),
      syncMode: (row: { sync_mode: string }) => upper(row.sync_mode),
      writeMode: (row: { write_mode: string }) => upper(row.write_mode),
      cursorField: (row: { cursor_field: string | null }) => row.cursor_field,
      primaryKey: (row: { primary_key: string[] }) => row.primary_key,
    },
    SyncRun: {
      sourceId: (row: RunNode) => row.source_id,
      workflowId: (row: { workflow_id: string | null }) => row.workflow_id,
      trigger: (row: RunNode) => upper(row.trigger),
      status: (row: RunNode) => upper(row.status),
      isTerminal: (row: { is_terminal: boolean }) => row.is_terminal,
      rowsRead: (row: { rows_read: number }) => row.rows_read,
      rowsAdded: (row: { rows_added: number }) => row.rows_added,
      rowsRemoved: (row: { rows_removed: number }) => row.rows_removed,
      createdAt: (row: RunNode) => row.created_at,
      startedAt: (row: { started_at: Date | null }) => row.started_at,
      finishedAt: (row: { finished_at: Date | null }) => row.finished_at,
      async streams(row: RunNode & { streams?: unknown[] }, _: unknown, context: GraphqlContext) {
        return row.streams ?? runs.streamsOf(requireMember(context), row.id);
      },
    },
    SyncRunStream: {
      streamId: (row: { stream_id: string }) => row.stream_id,
      streamName: (row: { stream_name: string }) => row.stream_name,
      status: (row: { status: string }) => upper(row.status),
      rowsRead: (row: { rows_read: number }) => row.rows_read,
      rowsAdded: (row: { rows_added: number }) => row.rows_added,
      rowsRemoved: (row: { rows_removed: number }) => row.rows_removed,
      snapshotId: (row: { snapshot_id: string | null }) => row.snapshot_id,
      cursorBefore: (row: { cursor_before: string | null }) => row.cursor_before,
      cursorAfter: (row: { cursor_after: string | null }) => row.cursor_after,
    },
  };
}

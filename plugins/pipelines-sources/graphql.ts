// GraphQL: sources with their pattern, streams and sync runs ("runs" are
// what GraphQL consumers query), as Relay connections both ways, and the
// mutation that starts a sync. Access as the REST routes: a bearer member of
// the tenant reads; starting a sync takes `admin` or `pipeline_editor` (as
// POST /api/v1/sources/{id}/sync); API keys get FORBIDDEN. Credential values
// are not in the schema at all; snapshot ids are strings (exact 64-bit); a
// stream's snapshot is the lake's, under the lakehouse's read rule.
import DataLoader from 'dataloader';
import {
  badInput, type ConnectionArgs, type GraphqlContext, isUuid, keysetConnection, requireMember, requireRole,
} from 'agent-platform/sdk';
import type { LakehouseApi } from '../lakehouse/api.ts';
import { EDITOR_ROLES } from './access.ts';
import type { PatternRegistry, RegisteredPattern } from './patterns/registry.ts';
import type { RunService } from './services/runs.ts';
import type { SourceService } from './services/sources.ts';
import type { StreamService } from './services/streams.ts';
import type { RunFilter } from './store/runs.ts';
import type { RunStatus } from './store/tables.ts';

export const typeDefs = /* GraphQL */ `
  "READY until its first sync, ACTIVE after."
  enum SourceState { READY ACTIVE }
  "How a stream reads: the whole table each run, or the rows past its cursor."
  enum SyncMode { FULL_REFRESH INCREMENTAL }
  "How a stream's rows land in its dataset."
  enum StreamWriteMode { OVERWRITE APPEND APPEND_DEDUP }
  "Where a sync run stands (PARTIAL: some streams failed)."
  enum SyncRunStatus { QUEUED RUNNING SUCCEEDED PARTIAL FAILED }
  "What started a sync run."
  enum SyncRunTrigger { MANUAL SCHEDULE }
  "Where one stream of a sync run stands."
  enum SyncRunStreamStatus { PENDING SUCCEEDED FAILED }

  "A pattern (connector) sources are made from, with its configuration schema."
  type SourcePattern {
    id: ID!
    name: String!
    description: String!
    "false: added by a plugin or registered as a preset."
    builtIn: Boolean!
    "A preset's base pattern."
    basePattern: String
    "JSON Schema of a source's configuration; credential fields are write-only."
    configSchema: JSON!
    credentialFields: [String!]!
  }

  "A source made from a pattern (connector). Credential values are never exposed."
  type Source {
    id: ID!
    name: String!
    patternId: ID!
    "The pattern (null when the plugin that registered it is gone)."
    pattern: SourcePattern
    "The configuration without credential fields."
    sourceConfig: JSON!
    credentialRef: String
    credentialName: String
    "Declared credential fields that have a value."
    credentialFieldsSet: [String!]!
    state: SourceState!
    streams: [Stream!]!
    "The source's sync runs, newest first (a sourceId in the filter other than this source's selects none)."
    runs(filter: SyncRunFilter, first: Int, after: String, last: Int, before: String): SyncRunConnection!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  "A stream of a source: a table or endpoint that lands in one dataset."
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

  "A sync run of a source: its status, counters, timings and each stream's result."
  type SyncRun {
    id: ID!
    sourceId: ID!
    "The source (null once deleted)."
    source: Source
    "The job system's id of the run's job (the workflow id of REST)."
    workflowId: ID
    trigger: SyncRunTrigger!
    status: SyncRunStatus!
    isTerminal: Boolean!
    attempts: Int!
    rowsRead: Float!
    rowsAdded: Float!
    rowsRemoved: Float!
    error: String
    "The run's streams by name, each with its result."
    streams: [SyncRunStream!]!
    createdAt: DateTime!
    startedAt: DateTime
    finishedAt: DateTime
    "From start to end; null until it ended."
    durationMs: Int
  }

  "One stream of a sync run: what it read and wrote."
  type SyncRunStream {
    streamId: ID!
    "The stream (null once deleted)."
    stream: Stream
    streamName: String!
    namespace: String
    destination: String!
    syncMode: SyncMode!
    writeMode: StreamWriteMode!
    status: SyncRunStreamStatus!
    rowsRead: Float!
    rowsAdded: Float!
    rowsRemoved: Float!
    "Values that did not fit their column's type (stored as null)."
    typeErrors: Float!
    "The snapshot the write left the dataset at (exact decimal string)."
    snapshotId: ID
    "The snapshot the write left the destination dataset at (under the lakehouse's read rule; null when none, or vacuumed by retention)."
    snapshot: DatasetSnapshot
    "Whether this write made a new snapshot."
    snapshotCreated: Boolean!
    cursorBefore: String
    cursorAfter: String
    error: String
    finishedAt: DateTime
  }

  "Conditions on sync runs (AND)."
  input SyncRunFilter {
    sourceId: ID
    status: SyncRunStatus
  }

  type SourceEdge { node: Source! cursor: String! }
  type SourceConnection {
    edges: [SourceEdge!]!
    pageInfo: PageInfo!
    "Every source of the tenant."
    totalCount: Int!
  }
  type SyncRunEdge { node: SyncRun! cursor: String! }
  type SyncRunConnection {
    edges: [SyncRunEdge!]!
    pageInfo: PageInfo!
    "Runs that match the filter."
    totalCount: Int!
  }

  extend type Query {
    "The tenant's sources, oldest first."
    sources(first: Int, after: String, last: Int, before: String): SourceConnection!
    "A source (null when absent)."
    source(id: ID!): Source
    "Sync runs of every source, newest first."
    runs(filter: SyncRunFilter, first: Int, after: String, last: Int, before: String): SyncRunConnection!
    "A sync run with its streams (null when absent)."
    run(id: ID!): SyncRun
  }

  type Mutation {
    """
    Start a sync run of a source (its enabled streams, or those named), as
    POST /api/v1/sources/{id}/sync: admin or pipeline_editor; 409 SYNC_IN_PROGRESS
    while one is queued or running; 409 NO_ENABLED_STREAMS when no enabled
    stream would be read; 404 SOURCE_NOT_FOUND.
    """
    syncSource(sourceId: ID!, streams: [String!]): SyncRun!
  }
`;

const upper = (value: string) => value.toUpperCase();

type SourceNode = NonNullable<Awaited<ReturnType<SourceService['findMany']>>[number]>;
type StreamNode = NonNullable<Awaited<ReturnType<StreamService['findMany']>>[number]>;
type RunNode = Awaited<ReturnType<RunService['page']>>[number] & { streams?: RunStreamNode[] };
type RunStreamNode = Awaited<ReturnType<RunService['streamsOf']>>[number];
type RunFilterArg = { sourceId?: string | null; status?: string | null } | null | undefined;

/** The store's filter of a SyncRunFilter; `null` when it can select no run (a source id of another source). */
function runFilter(filter: RunFilterArg, sourceId?: string): RunFilter | null {
  const wanted = filter?.sourceId ?? undefined;
  if (wanted !== undefined && !isUuid(wanted)) throw badInput('filter.sourceId is not a valid source id');
  if (sourceId !== undefined && wanted !== undefined && wanted !== sourceId) return null;
  return { sourceId: sourceId ?? wanted, status: filter?.status?.toLowerCase() as RunStatus | undefined };
}

const validUuidKey = (key: unknown) => typeof key === 'string' && isUuid(key);

/** Per-request loaders (one set per tenant): a page of runs reads its sources, streams and run streams in one query each. */
function loaderCache<K, V>(load: (tenantId: string, keys: readonly K[]) => Promise<V[]>) {
  const cache = new WeakMap<object, Map<string, DataLoader<K, V>>>();
  return (context: GraphqlContext, tenantId: string) => {
    let byTenant = cache.get(context.request);
    if (!byTenant) cache.set(context.request, (byTenant = new Map()));
    let loader = byTenant.get(tenantId);
    if (!loader) byTenant.set(tenantId, (loader = new DataLoader((keys: readonly K[]) => load(tenantId, keys))));
    return loader;
  };
}

export function resolvers(sources: SourceService, streams: StreamService, runs: RunService, patterns: PatternRegistry, lake: () => LakehouseApi) {
  const sourceLoader = loaderCache<string, SourceNode | undefined>((tenantId, ids) => sources.findMany(tenantId, ids));
  const streamLoader = loaderCache<string, StreamNode | undefined>((tenantId, ids) => streams.findMany(tenantId, ids));
  const runStreamsLoader = loaderCache<string, RunStreamNode[]>((tenantId, ids) => runs.streamsOfMany(tenantId, ids));

  const runConnection = (tenantId: string, args: ConnectionArgs & { filter?: RunFilterArg }, sourceId?: string) => {
    const filter = runFilter(args.filter, sourceId);
    return keysetConnection(args, {
      keyOf: (run: RunNode) => run.id,
      validKey: validUuidKey,
      fetch: (page) => (filter ? runs.page(tenantId, filter, page) : Promise.resolve([])),
      count: () => (filter ? runs.count(tenantId, filter) : 0),
    });
  };

  return {
    Query: {
      sources(_: unknown, args: ConnectionArgs, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return keysetConnection(args, {
          keyOf: (source: SourceNode) => source.id,
          validKey: validUuidKey,
          fetch: (page) => sources.page(tenantId, page),
          count: () => sources.count(tenantId),
        });
      },
      async source(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return isUuid(args.id) ? (await sources.findMany(tenantId, [args.id]))[0] ?? null : null;
      },
      runs(_: unknown, args: ConnectionArgs & { filter?: RunFilterArg }, context: GraphqlContext) {
        return runConnection(requireMember(context), args);
      },
      run(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return isUuid(args.id) ? runs.get(tenantId, args.id) : null;
      },
    },
    Mutation: {
      async syncSource(_: unknown, args: { sourceId: string; streams?: string[] | null }, context: GraphqlContext) {
        const tenantId = requireRole(context, EDITOR_ROLES);
        if (!isUuid(args.sourceId)) throw badInput('sourceId is not a valid source id');
        const names = args.streams ?? undefined;
        if (names && (names.length === 0 || names.length > 1000 || new Set(names).size !== names.length || names.some((name) => name.length === 0 || name.length > 200))) {
          throw badInput('streams names 1 to 1000 streams, each once (names of 1 to 200 characters)');
        }
        const started = await runs.start(tenantId, args.sourceId, { streams: names, trigger: 'manual', createdBy: context.principal!.sub });
        return runs.get(tenantId, started.id);
      },
    },
    Source: {
      patternId: (row: SourceNode) => row.pattern_id,
      pattern(row: SourceNode, _: unknown, context: GraphqlContext) {
        requireMember(context);
        return patterns.list().find((found) => found.pattern.id === row.pattern_id) ?? null;
      },
      sourceConfig: (row: SourceNode) => row.source_config,
      credentialRef: (row: SourceNode) => row.credential_ref,
      credentialName: (row: SourceNode) => row.credential_name,
      credentialFieldsSet: (row: SourceNode) => row.credential_fields_set,
      state: (row: SourceNode) => upper(row.state),
      createdAt: (row: SourceNode) => row.created_at,
      updatedAt: (row: SourceNode) => row.updated_at,
      async streams(row: SourceNode, _: unknown, context: GraphqlContext) {
        return (await streams.list(requireMember(context), row.id)).items;
      },
      runs: (row: SourceNode, args: ConnectionArgs & { filter?: RunFilterArg }, context: GraphqlContext) => runConnection(requireMember(context), args, row.id),
    },
    SourcePattern: {
      id: (row: RegisteredPattern) => row.pattern.id,
      name: (row: RegisteredPattern) => row.pattern.name,
      description: (row: RegisteredPattern) => row.pattern.description,
      builtIn: (row: RegisteredPattern) => row.builtIn,
      basePattern: (row: RegisteredPattern) => row.basePattern ?? null,
      configSchema: (row: RegisteredPattern) => row.pattern.configSchema,
      credentialFields: (row: RegisteredPattern) => row.credentialFields,
    },
    Stream: {
      supportedSyncModes: (row: StreamNode) => row.supported_sync_modes.map(upper),
      syncMode: (row: StreamNode) => upper(row.sync_mode),
      writeMode: (row: StreamNode) => upper(row.write_mode),
      cursorField: (row: StreamNode) => row.cursor_field,
      primaryKey: (row: StreamNode) => row.primary_key,
    },
    SyncRun: {
      sourceId: (row: RunNode) => row.source_id,
      async source(row: RunNode, _: unknown, context: GraphqlContext) {
        const tenantId = requireMember(context);
        return (await sourceLoader(context, tenantId).load(row.source_id)) ?? null;
      },
      workflowId: (row: RunNode) => row.workflow_id,
      trigger: (row: RunNode) => upper(row.trigger),
      status: (row: RunNode) => upper(row.status),
      isTerminal: (row: RunNode) => row.is_terminal,
      rowsRead: (row: RunNode) => row.rows_read,
      rowsAdded: (row: RunNode) => row.rows_added,
      rowsRemoved: (row: RunNode) => row.rows_removed,
      createdAt: (row: RunNode) => row.created_at,
      startedAt: (row: RunNode) => row.started_at,
      finishedAt: (row: RunNode) => row.finished_at,
      durationMs: (row: RunNode) => (row.started_at && row.finished_at ? row.finished_at.getTime() - row.started_at.getTime() : null),
      streams(row: RunNode, _: unknown, context: GraphqlContext) {
        return row.streams ?? runStreamsLoader(context, requireMember(context)).load(row.id);
      },
    },
    SyncRunStream: {
      streamId: (row: RunStreamNode) => row.stream_id,
      async stream(row: RunStreamNode, _: unknown, context: GraphqlContext) {
        return (await streamLoader(context, requireMember(context)).load(row.stream_id)) ?? null;
      },
      streamName: (row: RunStreamNode) => row.stream_name,
      syncMode: (row: RunStreamNode) => upper(row.sync_mode),
      writeMode: (row: RunStreamNode) => upper(row.write_mode),
      status: (row: RunStreamNode) => upper(row.status),
      rowsRead: (row: RunStreamNode) => row.rows_read,
      rowsAdded: (row: RunStreamNode) => row.rows_added,
      rowsRemoved: (row: RunStreamNode) => row.rows_removed,
      typeErrors: (row: RunStreamNode) => row.type_errors,
      snapshotId: (row: RunStreamNode) => row.snapshot_id,
      snapshot: (row: RunStreamNode, _: unknown, context: GraphqlContext) => lake().snapshotField(context, row.destination, row.snapshot_id),
      snapshotCreated: (row: RunStreamNode) => row.snapshot_created,
      cursorBefore: (row: RunStreamNode) => row.cursor_before,
      cursorAfter: (row: RunStreamNode) => row.cursor_after,
      finishedAt: (row: RunStreamNode) => row.finished_at,
    },
  };
}

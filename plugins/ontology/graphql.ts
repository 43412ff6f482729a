// GraphQL of the ontology: entity types, entities by type with filters on
// properties and related entities and relationship traversal, and the sync
// runs of a backing dataset. Every field applies the REST routes' principals
// (an authenticated member, never an API key or embed token) and the same
// authorization policy (authorization/policy.ts), so a service token may omit X-Tenant-ID here too.
import { GraphQLError } from 'graphql';
import { badInput, decodeCursor, type GraphqlContext, isUuid, pageSize, requirePrincipal, toConnection } from 'agent-platform/sdk';
import type { OntologyContext } from './services/context.ts';
import type { BackingDatasetService } from './services/backing-datasets.ts';
import { createEntityService } from './services/entities.ts';
import type { EntityTypeService } from './services/entity-types.ts';
import type { SyncService } from './services/syncs.ts';
import type { EntityRow } from './store/entities.ts';

export const typeDefs = /* GraphQL */ `
  enum EntityCardinality { ONE MANY }
  enum OntologySyncStatus { QUEUED RUNNING SUCCEEDED SKIPPED FAILED }

  type EntityRelationship { name: String! targetType: String! cardinality: EntityCardinality! via: String! }
  type EntityType {
    code: String!
    version: Int!
    name: String!
    description: String
    "JSON Schema of the entity's properties"
    properties: JSON!
    keys: [String!]!
    relationships: [EntityRelationship!]!
    carrierTypes: [String!]!
    deprecated: Boolean!
  }
  type EntityTypeEdge { node: EntityType! cursor: String! }
  type EntityTypeConnection { edges: [EntityTypeEdge!]! pageInfo: PageInfo! }

  "Where an entity came from: the backing dataset, the lake snapshot and the source row"
  type EntityLineage { backingDatasetId: ID! datasetId: String! snapshotId: String! sourceRowKey: String! syncedAt: DateTime! }
  type Entity {
    type: String!
    "The JSON array of its key values, in the type's key order"
    key: String!
    keyValues: JSON!
    properties: JSON!
    lineage: EntityLineage!
    "The entities a relationship of its type points at"
    related(relationship: String!, first: Int, after: String): EntityConnection!
  }
  type EntityEdge { node: Entity! cursor: String! }
  type EntityConnection { edges: [EntityEdge!]! pageInfo: PageInfo! }

  type OntologySyncBulkJob { jobId: String! operation: String! submittedCount: Int! completedCount: Int! }
  type BackingDatasetSyncRun {
    id: ID!
    status: OntologySyncStatus!
    force: Boolean!
    replayReason: String
    effectiveSpecChanged: Boolean!
    attemptedSyncSpecFingerprint: String!
    appliedSyncSpecFingerprint: String
    snapshotIdExact: String
    rowsSynced: Float!
    isTerminal: Boolean!
    bulkJobs: [OntologySyncBulkJob!]!
    error: String
    createdAt: DateTime!
    finishedAt: DateTime
  }
  type BackingDatasetSyncRunEdge { node: BackingDatasetSyncRun! cursor: String! }
  type BackingDatasetSyncRunConnection { edges: [BackingDatasetSyncRunEdge!]! pageInfo: PageInfo! }

  extend type Query {
    "The tenant's entity types at their current versions (members)"
    entityTypes(first: Int, after: String): EntityTypeConnection!
    "Entities of a type; where: property values (containment), and for a relationship's name an object of the related type's values"
    entities(type: String!, where: JSON, first: Int, after: String): EntityConnection!
    "A backing dataset's sync runs, newest first (members)"
    backingDatasetSyncRuns(backingDatasetId: ID!, first: Int, after: String): BackingDatasetSyncRunConnection!
  }
`;

interface Page { first?: number | null; after?: string | null }

export function resolvers(context: OntologyContext, types: EntityTypeService, backing: BackingDatasetService, syncs: SyncService) {
  const entities = createEntityService(context.core);

  /** The REST routes' rule: an authenticated member under the authorization policy (authorization/policy.ts); Boom errors keep their codes. */
  async function caller(ctx: GraphqlContext): Promise<string> {
    const principal = requirePrincipal(ctx);
    if (principal.kind === 'api_key' || principal.kind === 'embed') {
      throw new GraphQLError('This field needs a bearer token of a member of the tenant', { extensions: { code: 'FORBIDDEN' } });
    }
    return (await graphqlErrors(() => context.policy.authorize(principal, ctx.tenantId))).tenantId;
  }

  const entityConnection = (rows: EntityRow[], size: number, hadCursor: boolean) => toConnection(rows, size, (row) => row.key, hadCursor);

  return {
    Query: {
      entityTypes: async (_: unknown, args: Page, ctx: GraphqlContext) => {
        const tenantId = await caller(ctx);
        const size = pageSize(args);
        const page = await types.list(tenantId, { after: decodeCursor<string>(args.after), limit: size + 1 });
        return toConnection(page.items, size, (row) => row.code, Boolean(args.after));
      },
      entities: async (_: unknown, args: Page & { type: string; where?: unknown }, ctx: GraphqlContext) => {
        const tenantId = await caller(ctx);
        if (args.where !== undefined && args.where !== null && (typeof args.where !== 'object' || Array.isArray(args.where))) {
          throw badInput('where must be an object');
        }
        const size = pageSize(args);
        const rows = await graphqlErrors(() => entities.list(tenantId, args.type, (args.where ?? undefined) as Record<string, unknown> | undefined, decodeCursor<string>(args.after), size + 1));
        return entityConnection(rows, size, Boolean(args.after));
      },
      backingDatasetSyncRuns: async (_: unknown, args: Page & { backingDatasetId: string }, ctx: GraphqlContext) => {
        const tenantId = await caller(ctx);
        const size = pageSize(args);
        if (!isUuid(args.backingDatasetId)) throw badInput('backingDatasetId is not a UUID');
        await graphqlErrors(() => backing.get(tenantId, args.backingDatasetId));
        const rows = await syncs.page(tenantId, args.backingDatasetId, decodeCursor<string>(args.after), size + 1);
        return toConnection(rows, size, (row) => row.id, Boolean(args.after));
      },
    },
    EntityType: {
      carrierTypes: (row: { carrier_types: string[] }) => row.carrier_types,
    },
    EntityRelationship: {
      targetType: (row: { target_type: string }) => row.target_type,
      cardinality: (row: { cardinality: string }) => row.cardinality.toUpperCase(),
    },
    Entity: {
      type: (row: EntityRow) => row.entity_type,
      keyValues: (row: EntityRow) => row.key_values,
      lineage: (row: EntityRow) => ({
        backingDatasetId: row.backing_dataset_id, datasetId: row.dataset_id, snapshotId: row.snapshot_id, sourceRowKey: row.source_row_key, syncedAt: row.synced_at,
      }),
      related: async (row: EntityRow, args: Page & { relationship: string }, ctx: GraphqlContext) => {
        const tenantId = await caller(ctx);
        const size = pageSize(args);
        const rows = await graphqlErrors(() => entities.related(tenantId, row, args.relationship, decodeCursor<string>(args.after), size + 1));
        return entityConnection(rows, size, Boolean(args.after));
      },
    },
    BackingDatasetSyncRun: {
      status: (row: { status: string }) => row.status.toUpperCase(),
      replayReason: (row: { replay_reason: string | null }) => row.replay_reason,
      effectiveSpecChanged: (row: { effective_spec_changed: boolean }) => row.effective_spec_changed,
      attemptedSyncSpecFingerprint: (row: { attempted_sync_spec_fingerprint: string }) => row.attempted_sync_spec_fingerprint,
      appliedSyncSpecFingerprint: (row: { applied_sync_spec_fingerprint: string | null }) => row.applied_sync_spec_fingerprint,
      snapshotIdExact: (row: { snapshot_id_exact: string | null }) => row.snapshot_id_exact,
      rowsSynced: (row: { rows_synced: number }) => row.rows_synced,
      isTerminal: (row: { is_terminal: boolean }) => row.is_terminal,
      bulkJobs: (row: { bulk_jobs: { job_id: string; operation: string; submitted_count: number; completed_count: number }[] }) =>
        row.bulk_jobs.map((job) => ({ jobId: job.job_id, operation: job.operation, submittedCount: job.submitted_count, completedCount: job.completed_count })),
      createdAt: (row: { created_at: Date }) => row.created_at,
      finishedAt: (row: { finished_at: Date | null }) => row.finished_at,
    },
  };
}

/** Boom errors (policy, not found, bad input) as GraphQL errors with the same code. */
async function graphqlErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const boom = err as { isBoom?: boolean; message: string; data?: unknown; output?: { payload?: { code?: string } } };
    if (boom.isBoom) {
      const code = (boom.output?.payload as { code?: string } | undefined)?.code ?? (boom.data as { code?: string } | null)?.code ?? 'BAD_USER_INPUT';
      throw new GraphQLError(boom.message, { extensions: { code } });
    }
    throw err;
  }
}

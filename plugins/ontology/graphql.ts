// GraphQL of the ontology: entity types, entities by type with filters on
// properties and related entities and relationship traversal, and the sync
// runs of a backing dataset, as Relay connections both ways. Every field
// applies the REST routes' principals (an authenticated member, never an API
// key or embed token) and the same authorization policy
// (authorization/policy.ts), so a service token may omit X-Tenant-ID here too.
// An entity's lineage reaches its backing dataset (that route's rule) and the
// lake's dataset and snapshot (the datasets routes' rule: a member of the
// request's tenant, under the lakehouse's read rule), each read once per
// request (DataLoader).
import type { Request } from '@hapi/hapi';
import DataLoader from 'dataloader';
import { GraphQLError } from 'graphql';
import {
  badInput, type ConnectionArgs, type GraphqlContext, isUuid, keysetConnection, requireMember, requirePrincipal,
} from 'agent-platform/sdk';
import type { GraphqlNode } from '../lakehouse/api.ts';
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
  "A page of entity types"
  type EntityTypeConnection {
    edges: [EntityTypeEdge!]!
    pageInfo: PageInfo!
    "How many entity types the tenant has"
    totalCount: Int!
  }

  "A column of a backing dataset's lake dataset mapped onto a property of its entity type"
  type BackingDatasetMapping { column: String! property: String! }
  "A lake dataset mapped onto an entity type: its syncs make the entities"
  type BackingDataset {
    id: ID!
    name: String!
    "The id of the lake dataset it reads"
    datasetId: ID!
    "The lake dataset it reads (under the lakehouse's read rule; null when gone)"
    dataset: Dataset
    "The code of the entity type it makes"
    entityType: String!
    "The pinned version of the entity type (null: the current one)"
    entityTypeVersion: Int
    mappings: [BackingDatasetMapping!]!
    keyColumns: [String!]!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  "Where an entity came from: the backing dataset, the lake snapshot and the source row"
  type EntityLineage {
    backingDatasetId: ID!
    "The backing dataset whose sync wrote the entity (null when it was deleted since)"
    backingDataset: BackingDataset
    datasetId: ID!
    "The lake dataset the entity was read from (under the lakehouse's read rule; null when gone)"
    dataset: Dataset
    "The id of the lake snapshot the entity was read from (a decimal string)"
    snapshotId: ID!
    "The lake snapshot the entity was read from (null when gone, e.g. removed by retention)"
    snapshot: DatasetSnapshot
    sourceRowKey: String!
    syncedAt: DateTime!
  }
  type Entity {
    type: String!
    "The JSON array of its key values, in the type's key order"
    key: String!
    keyValues: JSON!
    properties: JSON!
    lineage: EntityLineage!
    "The entities a relationship of its type points at (filter.relationship names it)"
    related(filter: EntityFilter!, first: Int, after: String, last: Int, before: String): EntityConnection!
  }
  type EntityEdge { node: Entity! cursor: String! }
  "A page of entities, in key order"
  type EntityConnection {
    edges: [EntityEdge!]!
    pageInfo: PageInfo!
    "How many entities the filter matches"
    totalCount: Int!
  }
  "Which entities to list: Query.entities takes type (and where), Entity.related takes relationship"
  input EntityFilter {
    "The entity type's code (Query.entities: required)"
    type: String
    "Property values (containment), and for a relationship's name an object of the related type's values (Query.entities)"
    where: JSON
    "The name of a relationship of the entity's type (Entity.related: required)"
    relationship: String
  }

  "One bulk step of a sync run (its upsert, its removal of stale entities)"
  type OntologySyncBulkJob {
    "The step's id: <run id>:<operation>"
    id: ID!
    operation: String!
    submittedCount: Int!
    completedCount: Int!
  }
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
  "A page of sync runs, newest first"
  type BackingDatasetSyncRunConnection {
    edges: [BackingDatasetSyncRunEdge!]!
    pageInfo: PageInfo!
    "How many runs the backing dataset has"
    totalCount: Int!
  }
  "Whose sync runs to list"
  input BackingDatasetSyncRunFilter {
    "The backing dataset (required)"
    backingDatasetId: ID!
  }

  extend type Query {
    "The tenant's entity types at their current versions (members)"
    entityTypes(first: Int, after: String, last: Int, before: String): EntityTypeConnection!
    "Entities of a type (filter.type), filtered on their properties and their related entities' (filter.where)"
    entities(filter: EntityFilter!, first: Int, after: String, last: Int, before: String): EntityConnection!
    "A backing dataset's sync runs, newest first (members)"
    backingDatasetSyncRuns(filter: BackingDatasetSyncRunFilter!, first: Int, after: String, last: Int, before: String): BackingDatasetSyncRunConnection!
  }
`;

interface EntityFilterInput { type?: string | null; where?: unknown; relationship?: string | null }

const isString = (key: unknown) => typeof key === 'string' && key.length > 0 && key.length <= 10_000;
const isUuidKey = (key: unknown) => typeof key === 'string' && isUuid(key);

interface Loaders {
  backingDatasets: DataLoader<string, Awaited<ReturnType<BackingDatasetService['get']>> | null>;
  datasets: DataLoader<string, GraphqlNode | null>;
  snapshots: DataLoader<string, GraphqlNode | null>;
}

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

  // One set of loaders per request: a page of entities reads each backing dataset, dataset and snapshot of its lineage once.
  const perRequest = new WeakMap<Request, Loaders>();
  function loaders(ctx: GraphqlContext): Loaders {
    let found = perRequest.get(ctx.request);
    if (!found) {
      const each = <T>(keys: readonly string[], read: (key: string) => Promise<T>) => Promise.all(keys.map((key) => read(key).catch((err: Error) => err)));
      found = {
        backingDatasets: new DataLoader(async (ids) => {
          const tenantId = await caller(ctx);
          return each(ids, (id) => backing.get(tenantId, id).catch((err) => {
            if ((err as { output?: { statusCode: number } }).output?.statusCode === 404) return null;
            throw err;
          }));
        }),
        datasets: new DataLoader(async (ids) => {
          const tenantId = requireMember(ctx);
          return each(ids, (id) => context.lake().datasetNode(tenantId, id));
        }),
        snapshots: new DataLoader(async (keys) => {
          const tenantId = requireMember(ctx);
          return each(keys, (key) => {
            const [datasetId, snapshotId] = key.split('\u0000');
            return context.lake().snapshotNode(tenantId, datasetId!, snapshotId!);
          });
        }),
      };
      perRequest.set(ctx.request, found);
    }
    return found;
  }

  return {
    Query: {
      entityTypes: async (_: unknown, args: ConnectionArgs, ctx: GraphqlContext) => {
        const tenantId = await caller(ctx);
        return keysetConnection(args, {
          keyOf: (row: { code: string }) => row.code,
          validKey: isString,
          fetch: (page) => types.page(tenantId, page),
          count: () => types.count(tenantId),
        });
      },
      entities: async (_: unknown, args: ConnectionArgs & { filter: EntityFilterInput }, ctx: GraphqlContext) => {
        const tenantId = await caller(ctx);
        const { type, where, relationship } = args.filter;
        if (!type) throw badInput('filter.type is required');
        if (relationship != null) throw badInput('filter.relationship applies to Entity.related only');
        if (where !== undefined && where !== null && (typeof where !== 'object' || Array.isArray(where))) {
          throw badInput('filter.where must be an object');
        }
        const conditions = (where ?? undefined) as Record<string, unknown> | undefined;
        return keysetConnection(args, {
          keyOf: (row: EntityRow) => row.key,
          validKey: isString,
          fetch: (page) => graphqlErrors(() => entities.list(tenantId, type, conditions, page)),
          count: () => graphqlErrors(() => entities.count(tenantId, type, conditions)),
        });
      },
      backingDatasetSyncRuns: async (_: unknown, args: ConnectionArgs & { filter: { backingDatasetId: string } }, ctx: GraphqlContext) => {
        const tenantId = await caller(ctx);
        const { backingDatasetId } = args.filter;
        if (!isUuid(backingDatasetId)) throw badInput('filter.backingDatasetId is not a valid backing dataset id');
        await graphqlErrors(() => backing.get(tenantId, backingDatasetId));
        return keysetConnection(args, {
          keyOf: (row: { id: string }) => row.id,
          validKey: isUuidKey,
          fetch: (page) => syncs.page(tenantId, backingDatasetId, page),
          count: () => syncs.count(tenantId, backingDatasetId),
        });
      },
    },
    EntityType: {
      carrierTypes: (row: { carrier_types: string[] }) => row.carrier_types,
    },
    EntityRelationship: {
      targetType: (row: { target_type: string }) => row.target_type,
      cardinality: (row: { cardinality: string }) => row.cardinality.toUpperCase(),
    },
    BackingDataset: {
      datasetId: (row: { dataset_id: string }) => row.dataset_id,
      dataset: (row: { dataset_id: string }, _: unknown, ctx: GraphqlContext) => loaders(ctx).datasets.load(row.dataset_id),
      entityType: (row: { entity_type: string }) => row.entity_type,
      entityTypeVersion: (row: { entity_type_version: number | null }) => row.entity_type_version,
      keyColumns: (row: { key_columns: string[] }) => row.key_columns,
      createdAt: (row: { created_at: Date }) => row.created_at,
      updatedAt: (row: { updated_at: Date }) => row.updated_at,
    },
    Entity: {
      type: (row: EntityRow) => row.entity_type,
      keyValues: (row: EntityRow) => row.key_values,
      lineage: (row: EntityRow) => row,
      related: async (row: EntityRow, args: ConnectionArgs & { filter: EntityFilterInput }, ctx: GraphqlContext) => {
        const tenantId = await caller(ctx);
        const { type, where, relationship } = args.filter;
        if (!relationship) throw badInput('filter.relationship is required');
        if (type != null || where != null) throw badInput('filter.type and filter.where apply to Query.entities only');
        return keysetConnection(args, {
          keyOf: (entity: EntityRow) => entity.key,
          validKey: isString,
          fetch: (page) => graphqlErrors(() => entities.related(tenantId, row, relationship, page)),
          count: () => graphqlErrors(() => entities.relatedCount(tenantId, row, relationship)),
        });
      },
    },
    EntityLineage: {
      backingDatasetId: (row: EntityRow) => row.backing_dataset_id,
      backingDataset: (row: EntityRow, _: unknown, ctx: GraphqlContext) => loaders(ctx).backingDatasets.load(row.backing_dataset_id),
      datasetId: (row: EntityRow) => row.dataset_id,
      dataset: (row: EntityRow, _: unknown, ctx: GraphqlContext) => loaders(ctx).datasets.load(row.dataset_id),
      snapshotId: (row: EntityRow) => row.snapshot_id,
      snapshot: (row: EntityRow, _: unknown, ctx: GraphqlContext) => loaders(ctx).snapshots.load(`${row.dataset_id}\u0000${row.snapshot_id}`),
      sourceRowKey: (row: EntityRow) => row.source_row_key,
      syncedAt: (row: EntityRow) => row.synced_at,
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
        row.bulk_jobs.map((job) => ({ id: job.job_id, operation: job.operation, submittedCount: job.submitted_count, completedCount: job.completed_count })),
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

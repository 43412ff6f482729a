// GraphQL: the stream (`events`, newest first), triggers and one trigger with
// its dispatches, as Relay connections both ways with totalCount. Resolvers
// call the services; the REST views are renamed to GraphQL's camelCase and
// UPPER_CASE enums here. A trigger list's recentDispatches, and a page of
// dispatches' events, are loaded in one query per request (DataLoader).
// Access as in REST (GET /api/admin/triggers[/{name}], GET …/events/recent):
// a tenant admin; API keys get FORBIDDEN. An event's tenant and a dispatch's
// execution are read through the top-level field that owns them (Query.tenant,
// Query.execution), so their own guards apply.
import DataLoader from 'dataloader';
import type { Request } from '@hapi/hapi';
import type { GraphQLResolveInfo } from 'graphql';
import { badInput, type ConnectionArgs, type GraphqlContext, keysetConnection, requireAdmin } from 'agent-platform/sdk';
import type { StreamService } from './services/stream.ts';
import type { TriggerService } from './services/triggers.ts';
import type { TriggerView, StreamEventView } from './views/view.ts';
import type { dispatchView } from './views/view.ts';

type DispatchView = ReturnType<typeof dispatchView>;

export const typeDefs = /* GraphQL */ `
  enum TriggerKind {
    REACTIVE
    SCHEDULED
    DEADMAN
  }

  enum MissedFirePolicy {
    SKIP
    CATCH_UP_ONCE
  }

  enum DispatchOrigin {
    EVENT
    SCHEDULE
    DEADMAN
    BACKFILL
  }

  enum DispatchStatus {
    STARTED
    DEDUPLICATED
    FAILED
    MISSED
  }

  "A CloudEvents 1.0 event on the tenant's stream."
  type Event {
    id: ID!
    "The event's number: unique in the tenant's stream, in emission order, with gaps. Lists are ordered by it."
    seq: Float!
    "Its place in the stream's order (transaction, then number), as text that sorts in that order: what a consumer that must miss nothing follows (the CLI's events tail)."
    position: String!
    specVersion: String!
    type: String!
    source: String!
    time: DateTime!
    tenantId: ID!
    "The tenant whose stream holds the event (as Query.tenant: API keys get FORBIDDEN)."
    tenant: Tenant
    "Events of a chain of workflows emitting events before this one (the chaindepth extension; 0 when none)."
    chainDepth: Int!
    dataContentType: String!
    data: JSON!
    "Whether the dispatcher has handled it."
    dispatched: Boolean!
  }

  "An event in a page of events."
  type EventEdge {
    node: Event!
    cursor: String!
  }

  "A page of the stream, newest first."
  type EventConnection {
    edges: [EventEdge!]!
    pageInfo: PageInfo!
    "The events of the filter."
    totalCount: Int!
  }

  "Which events a list holds."
  input EventFilter {
    "An event type, or a pattern ending in * (order.*)."
    type: String
    "Events whose time is at or after this."
    timeAfter: DateTime
  }

  type ScheduleConfig {
    cron: String!
    timezone: String!
    note: String
    missedFirePolicy: MissedFirePolicy!
  }

  type DeadmanConfig {
    watchEventType: String!
    withinSeconds: Int!
    watchFilter: JSON
    afterEventType: String
    recurring: Boolean!
  }

  "What a trigger did with one event or timer."
  type TriggerDispatch {
    id: ID!
    origin: DispatchOrigin!
    status: DispatchStatus!
    "The event it handled (null for a timer)."
    eventId: ID
    "That event, while the stream keeps it."
    event: Event
    eventSeq: Float
    dedupKey: String
    "The execution it started, if any."
    executionId: ID
    "That execution (as Query.execution)."
    execution: Execution
    error: String
    createdAt: DateTime!
  }

  "A dispatch in a page of dispatches."
  type TriggerDispatchEdge {
    node: TriggerDispatch!
    cursor: String!
  }

  "A page of a trigger's dispatches, newest first."
  type TriggerDispatchConnection {
    edges: [TriggerDispatchEdge!]!
    pageInfo: PageInfo!
    "Every dispatch of the trigger."
    totalCount: Int!
  }

  type Trigger {
    name: String!
    kind: TriggerKind!
    eventType: String!
    eventFilter: JSON
    targetType: String!
    targetName: String!
    inputMapping: JSON
    active: Boolean!
    dedupKey: String
    dedupWindowSeconds: Int!
    "Reactive: the trigger ignores workflow.completed/failed of executions it started."
    ignoreOwnResults: Boolean!
    scheduleConfig: ScheduleConfig
    deadmanConfig: DeadmanConfig
    nextFireAt: DateTime
    deadmanDeadline: DateTime
    lastFiredAt: DateTime
    createdAt: DateTime!
    updatedAt: DateTime!
    "The newest dispatches, newest first (batched across a list of triggers)."
    recentDispatches(limit: Int = 10): [TriggerDispatch!]!
    "The trigger's dispatches, newest first."
    dispatches(first: Int, after: String, last: Int, before: String): TriggerDispatchConnection!
  }

  "A trigger in a page of triggers."
  type TriggerEdge {
    node: Trigger!
    cursor: String!
  }

  "A page of triggers, by name."
  type TriggerConnection {
    edges: [TriggerEdge!]!
    pageInfo: PageInfo!
    "The triggers of the filter."
    totalCount: Int!
  }

  "Which triggers a list holds."
  input TriggerFilter {
    "Only active triggers."
    activeOnly: Boolean
    "Triggers that listen to this event type (their event_type is it, or a pattern matching it)."
    eventType: String
  }

  extend type Query {
    "The tenant's events, newest first."
    events(filter: EventFilter, first: Int, after: String, last: Int, before: String): EventConnection!
    "The tenant's triggers, by name."
    triggers(filter: TriggerFilter, first: Int, after: String, last: Int, before: String): TriggerConnection!
    "One trigger; null when there is none of that name."
    trigger(name: String!): Trigger
  }
`;

interface EventFilterInput {
  type?: string | null;
  timeAfter?: Date | null;
}

interface TriggerFilterInput {
  activeOnly?: boolean | null;
  eventType?: string | null;
}

const isSeq = (key: unknown) => Number.isSafeInteger(key) && (key as number) >= 0;
const isName = (key: unknown) => typeof key === 'string';

function timeOf(value: Date | null | undefined): Date | undefined {
  if (value === null || value === undefined) return undefined;
  if (Number.isNaN(value.getTime())) throw badInput('timeAfter is not a date');
  return value;
}

/** A top-level query field resolved for a reference to its object: the owning plugin's resolver, with its guard. */
function viaQuery(info: GraphQLResolveInfo, field: string, args: Record<string, unknown>, context: GraphqlContext): unknown {
  const resolve = info.schema.getQueryType()?.getFields()[field]?.resolve;
  return resolve ? resolve(undefined, args, context, info) : null;
}

const upper = (value: string) => value.toUpperCase();
const MAX_RECENT = 100;

export function resolvers(stream: StreamService, triggers: TriggerService) {
  // One loader per request and limit: a list of triggers asks in one query.
  const loaders = new WeakMap<Request, Map<number, DataLoader<string, DispatchView[]>>>();
  const eventLoaders = new WeakMap<Request, DataLoader<number, StreamEventView | null>>();
  function eventLoader(context: GraphqlContext, tenantId: string) {
    let loader = eventLoaders.get(context.request);
    if (!loader) {
      loader = new DataLoader((seqs: readonly number[]) => stream.bySeqs(tenantId, seqs));
      eventLoaders.set(context.request, loader);
    }
    return loader;
  }
  function recentLoader(context: GraphqlContext, tenantId: string, limit: number) {
    let byLimit = loaders.get(context.request);
    if (!byLimit) loaders.set(context.request, (byLimit = new Map()));
    let loader = byLimit.get(limit);
    if (!loader) {
      loader = new DataLoader((names: readonly string[]) => triggers.recentDispatchesOf(tenantId, names, limit));
      byLimit.set(limit, loader);
    }
    return loader;
  }

  return {
    Query: {
      events(_: unknown, args: ConnectionArgs & { filter?: EventFilterInput | null }, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        const filter = { type: args.filter?.type ?? undefined, timeAfter: timeOf(args.filter?.timeAfter) };
        return keysetConnection(args, {
          keyOf: (row: StreamEventView) => row.seq,
          validKey: isSeq,
          fetch: (page) => stream.page(tenantId, filter, page),
          count: () => stream.count(tenantId, filter),
        });
      },
      triggers(_: unknown, args: ConnectionArgs & { filter?: TriggerFilterInput | null }, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        const filter = { activeOnly: args.filter?.activeOnly ?? false, eventType: args.filter?.eventType ?? undefined };
        return keysetConnection(args, {
          keyOf: (row: TriggerView) => row.name,
          validKey: isName,
          fetch: (page) => triggers.page(tenantId, filter, page),
          count: () => triggers.count(tenantId, filter),
        });
      },
      async trigger(_: unknown, args: { name: string }, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        try {
          return await triggers.get(tenantId, args.name);
        } catch (err) {
          if ((err as { output?: { statusCode: number } }).output?.statusCode === 404) return null;
          throw err;
        }
      },
    },
    Event: {
      specVersion: (event: StreamEventView) => event.specversion,
      tenantId: (event: StreamEventView) => event.tenantid,
      tenant: (_: StreamEventView, __: unknown, context: GraphqlContext, info: GraphQLResolveInfo) => viaQuery(info, 'tenant', {}, context),
      chainDepth: (event: StreamEventView) => event.chaindepth ?? 0,
      dataContentType: (event: StreamEventView) => event.datacontenttype,
    },
    Trigger: {
      kind: (t: TriggerView) => upper(t.kind),
      eventType: (t: TriggerView) => t.event_type,
      eventFilter: (t: TriggerView) => t.event_filter,
      targetType: (t: TriggerView) => t.target_type,
      targetName: (t: TriggerView) => t.target_name,
      inputMapping: (t: TriggerView) => t.input_mapping,
      dedupKey: (t: TriggerView) => t.dedup_key,
      dedupWindowSeconds: (t: TriggerView) => t.dedup_window_seconds,
      ignoreOwnResults: (t: TriggerView) => t.ignore_own_results,
      scheduleConfig: (t: TriggerView) => t.schedule_config && {
        cron: t.schedule_config.cron, timezone: t.schedule_config.timezone, note: t.schedule_config.note ?? null,
        missedFirePolicy: upper(t.schedule_config.missed_fire_policy),
      },
      deadmanConfig: (t: TriggerView) => t.deadman_config && {
        watchEventType: t.deadman_config.watch_event_type, withinSeconds: t.deadman_config.within_seconds,
        watchFilter: t.deadman_config.watch_filter ?? null, afterEventType: t.deadman_config.after_event_type ?? null,
        recurring: t.deadman_config.recurring,
      },
      nextFireAt: (t: TriggerView) => t.next_fire_at,
      deadmanDeadline: (t: TriggerView) => t.deadman_deadline,
      lastFiredAt: (t: TriggerView) => t.last_fired_at,
      createdAt: (t: TriggerView) => t.created_at,
      updatedAt: (t: TriggerView) => t.updated_at,
      recentDispatches: (t: TriggerView, args: { limit: number }, context: GraphqlContext) => {
        const limit = Math.min(Math.max(args.limit ?? 10, 1), MAX_RECENT);
        return recentLoader(context, requireAdmin(context), limit).load(t.name);
      },
      dispatches(t: TriggerView, args: ConnectionArgs, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        return keysetConnection(args, {
          keyOf: (row: DispatchView) => row.id,
          validKey: isSeq,
          fetch: (page) => triggers.dispatches(tenantId, t.name, page),
          count: () => triggers.countDispatches(tenantId, t.name),
        });
      },
    },
    TriggerDispatch: {
      origin: (d: DispatchView) => upper(d.origin),
      status: (d: DispatchView) => upper(d.status),
      eventId: (d: DispatchView) => d.event_id,
      event: (d: DispatchView, _: unknown, context: GraphqlContext) =>
        (d.event_seq === null ? null : eventLoader(context, requireAdmin(context)).load(Number(d.event_seq))),
      eventSeq: (d: DispatchView) => d.event_seq,
      dedupKey: (d: DispatchView) => d.dedup_key,
      executionId: (d: DispatchView) => d.execution_id,
      execution: (d: DispatchView, _: unknown, context: GraphqlContext, info: GraphQLResolveInfo) =>
        (d.execution_id === null ? null : viaQuery(info, 'execution', { id: d.execution_id }, context)),
      createdAt: (d: DispatchView) => d.created_at,
    },
  };
}

// GraphQL: the stream (`events`, newest first), triggers and one trigger with
// its dispatches, as Relay connections. Resolvers call the services; the REST
// views are renamed to GraphQL's camelCase and UPPER_CASE enums here. A
// trigger list's recentDispatches are loaded in one query per request (DataLoader).
// Access as in REST (GET /api/admin/triggers[/{name}], GET …/events/recent):
// a bearer member of the tenant; API keys get FORBIDDEN.
import DataLoader from 'dataloader';
import type { Request } from '@hapi/hapi';
import { type ConnectionArgs, decodeCursor, type GraphqlContext, pageSize, requireAdmin, toConnection } from 'agent-platform/sdk';
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
    id: String!
    "Position in the tenant's stream (gap-free, in commit order)."
    seq: Float!
    specVersion: String!
    type: String!
    source: String!
    time: DateTime!
    tenantId: String!
    "Events of a chain of workflows emitting events before this one (the chaindepth extension; 0 when none)."
    chainDepth: Int!
    dataContentType: String!
    data: JSON!
    "Whether the dispatcher has handled it."
    dispatched: Boolean!
  }

  type EventEdge {
    node: Event!
    cursor: String!
  }

  type EventConnection {
    edges: [EventEdge!]!
    pageInfo: PageInfo!
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
    eventId: String
    eventSeq: Float
    dedupKey: String
    executionId: String
    error: String
    createdAt: DateTime!
  }

  type TriggerDispatchEdge {
    node: TriggerDispatch!
    cursor: String!
  }

  type TriggerDispatchConnection {
    edges: [TriggerDispatchEdge!]!
    pageInfo: PageInfo!
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
    dispatches(first: Int, after: String): TriggerDispatchConnection!
  }

  type TriggerEdge {
    node: Trigger!
    cursor: String!
  }

  type TriggerConnection {
    edges: [TriggerEdge!]!
    pageInfo: PageInfo!
  }

  extend type Query {
    "The tenant's events, newest first; type is exact or a pattern ending in *."
    events(type: String, since: DateTime, first: Int, after: String): EventConnection!
    triggers(activeOnly: Boolean, eventType: String, first: Int, after: String): TriggerConnection!
    trigger(name: String!): Trigger
  }
`;

const upper = (value: string) => value.toUpperCase();
const MAX_RECENT = 100;

export function resolvers(stream: StreamService, triggers: TriggerService) {
  // One loader per request and limit: a list of triggers asks in one query.
  const loaders = new WeakMap<Request, Map<number, DataLoader<string, DispatchView[]>>>();
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
      async events(_: unknown, args: ConnectionArgs & { type?: string; since?: Date }, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        const size = pageSize(args);
        const beforeSeq = decodeCursor<number>(args.after);
        const rows = await stream.page(tenantId, { type: args.type ?? undefined, since: args.since ?? undefined, beforeSeq, limit: size + 1 });
        return toConnection(rows, size, (row) => row.seq, Boolean(args.after));
      },
      async triggers(_: unknown, args: ConnectionArgs & { activeOnly?: boolean; eventType?: string }, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        const size = pageSize(args);
        const afterName = decodeCursor<string>(args.after) ?? '';
        const rows = await triggers.after(tenantId, { activeOnly: args.activeOnly ?? false, eventType: args.eventType ?? undefined }, afterName, size + 1);
        return toConnection(rows, size, (row) => row.name, Boolean(args.after));
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
      async dispatches(t: TriggerView, args: ConnectionArgs, context: GraphqlContext) {
        const size = pageSize(args);
        const beforeId = decodeCursor<number>(args.after);
        const rows = await triggers.dispatches(requireAdmin(context), t.name, beforeId, size + 1);
        return toConnection(rows, size, (row) => row.id, Boolean(args.after));
      },
    },
    TriggerDispatch: {
      origin: (d: DispatchView) => upper(d.origin),
      status: (d: DispatchView) => upper(d.status),
      eventId: (d: DispatchView) => d.event_id,
      eventSeq: (d: DispatchView) => d.event_seq,
      dedupKey: (d: DispatchView) => d.dedup_key,
      executionId: (d: DispatchView) => d.execution_id,
      createdAt: (d: DispatchView) => d.created_at,
    },
  };
}

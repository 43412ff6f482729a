// Triggers' domain logic: CRUD (with their timers armed in the same
// transaction), the dry run, backfill and dispatch history. Knows nothing of
// HTTP; routes, GraphQL and the CLI call it.
import { randomUUID } from 'node:crypto';
import { conflict, notFound, type Actor, type KeysetPage, type TenantTransaction } from 'agent-platform/sdk';
import type { CloudEvent } from '../stream/cloudevent.ts';
import { runBackfill, type BackfillOptions, type BackfillResult } from '../dispatch/backfill.ts';
import type { EventsContext } from './context.ts';
import { dedupKeyOf, explain, mapInputs, watchOf } from '../triggers/matching.ts';
import * as schemas from '../schemas.ts';
import {
  dedupStore, dispatchesStore, triggersStore, type TriggerDefinition, type TriggerListFilter, type TriggerState,
} from '../store/triggers.ts';
import type { TriggerRow } from '../store/tables.ts';
import { armTrigger, disarm } from '../triggers/timers.ts';
import { invalid, shaped, toDefinition, type TriggerDraft } from '../triggers/validation.ts';
import { dispatchView, triggerView } from '../views/view.ts';

export interface TestEventInput {
  type: string;
  data?: Record<string, unknown>;
  source?: string;
  id?: string;
  time?: Date | string;
}

const TRIGGER_NOT_FOUND = (name: string) => notFound(`Trigger not found: ${name}`, 'TRIGGER_NOT_FOUND');

/** Fields whose change re-arms timers (an unrelated edit must not restart a deadman window). */
const TIMING_FIELDS = ['active', 'kind', 'schedule_config', 'deadman_config'] as const;

function definitionOf(row: TriggerRow): TriggerDefinition {
  const { name, kind, event_type, event_filter, target_type, target_name, input_mapping, active, dedup_key, dedup_window_seconds, ignore_own_results } = row;
  return {
    name, kind, event_type, event_filter, target_type, target_name, input_mapping, active, dedup_key, dedup_window_seconds, ignore_own_results,
    schedule_config: row.schedule_config as Record<string, unknown> | null,
    deadman_config: row.deadman_config as Record<string, unknown> | null,
  };
}

export function createTriggerService(context: EventsContext) {
  const { withTenant } = context;

  /** Arms timers; `activated` (created, or made active): it listens to the events committed from now on. */
  async function arm(trx: TenantTransaction, tenantId: string, row: TriggerRow, activated: boolean): Promise<TriggerRow> {
    const state: TriggerState = await armTrigger(context, trx, tenantId, row);
    await triggersStore.setState(trx, row.name, state, activated);
    return { ...row, ...state };
  }

  async function locked(trx: TenantTransaction, name: string): Promise<TriggerRow> {
    const row = await triggersStore.lock(trx, name);
    if (!row) throw TRIGGER_NOT_FOUND(name);
    return row;
  }

  return {
    /** `by`: the person its workflows act for (the creator; the last editor after an update). */
    async create(tenantId: string, input: unknown, by: Actor | undefined) {
      const definition = toDefinition(shaped<TriggerDraft>(schemas.createTrigger, input));
      return withTenant(tenantId, async (trx) => {
        if (await triggersStore.get(trx, definition.name)) throw conflict(`Trigger already exists: ${definition.name}`, 'TRIGGER_EXISTS');
        return triggerView(await arm(trx, tenantId, await triggersStore.insert(trx, tenantId, definition, by), true));
      });
    },

    async update(tenantId: string, name: string, input: unknown, by: Actor | undefined) {
      const patch = shaped<Partial<TriggerDraft>>(schemas.updateTrigger, input);
      if (patch.name !== undefined && patch.name !== name) throw invalid([{ field: 'name', message: 'triggers cannot be renamed' }]);
      return withTenant(tenantId, async (trx) => {
        const current = await locked(trx, name);
        const definition = toDefinition({ ...definitionOf(current), ...patch, name } as TriggerDraft);
        const updated = await triggersStore.update(trx, name, definition, by);
        if (definition.dedup_key !== current.dedup_key) await dedupStore.clear(trx, name);
        const retime = TIMING_FIELDS.some((field) => JSON.stringify(updated[field]) !== JSON.stringify(current[field]));
        return triggerView(retime ? await arm(trx, tenantId, updated, updated.active && !current.active) : updated);
      });
    },

    async get(tenantId: string, name: string) {
      const row = await withTenant(tenantId, (trx) => triggersStore.get(trx, name));
      if (!row) throw TRIGGER_NOT_FOUND(name);
      return triggerView(row);
    },

    async list(tenantId: string, filter: TriggerListFilter, skip: number, limit: number) {
      const page = await withTenant(tenantId, (trx) => triggersStore.list(trx, filter, skip, limit));
      return { items: page.items.map(triggerView), total: page.total, skip, limit };
    },

    /** A keyset page by name (GraphQL). */
    page: (tenantId: string, filter: TriggerListFilter, page: KeysetPage<string>) =>
      withTenant(tenantId, async (trx) => (await triggersStore.page(trx, filter, page)).map(triggerView)),

    count: (tenantId: string, filter: TriggerListFilter) => withTenant(tenantId, (trx) => triggersStore.count(trx, filter)),

    async delete(tenantId: string, name: string) {
      await withTenant(tenantId, async (trx) => {
        await locked(trx, name);
        await disarm(context, trx, tenantId, name);
        await triggersStore.delete(trx, name);
      });
    },

    /** Dry run: would this event match, why (per filter key), and what would the workflow get. Starts nothing. */
    async test(tenantId: string, name: string, input: TestEventInput) {
      const row = await withTenant(tenantId, (trx) => triggersStore.get(trx, name));
      if (!row) throw TRIGGER_NOT_FOUND(name);
      const event: CloudEvent = {
        specversion: '1.0',
        id: input.id ?? `test-${randomUUID()}`,
        type: input.type,
        source: input.source ?? '/api/admin/triggers/test',
        time: new Date(input.time ?? Date.now()).toISOString(),
        tenantid: tenantId,
        datacontenttype: 'application/json',
        data: input.data ?? {},
      };
      const { pattern, filter } = watchOf(row);
      const explanation = explain(pattern, filter, event);
      return {
        matched: explanation.matched,
        type_matched: explanation.type_matched,
        filter_result: explanation.filter_result.keys,
        input_mapping_result: mapInputs(row.input_mapping, event),
        dedup_key_result: dedupKeyOf(row.dedup_key, event),
        event,
      };
    },

    /** Replays dispatched events through one reactive trigger (see dispatch/backfill.ts). */
    backfill: (tenantId: string, name: string, options: BackfillOptions): Promise<BackfillResult> =>
      withTenant(tenantId, (trx) => runBackfill(context, trx, tenantId, name, options)),

    /** One trigger's dispatches, newest first, keyset-paged by id (forward: older than the cursor; backward: newer, oldest first). */
    async dispatches(tenantId: string, name: string, page: KeysetPage<number>) {
      const rows = await withTenant(tenantId, (trx) => dispatchesStore.page(trx, name, page));
      return rows.map(dispatchView);
    },

    countDispatches: (tenantId: string, name: string) => withTenant(tenantId, (trx) => dispatchesStore.count(trx, name)),

    /** The newest dispatches of several triggers at once (a GraphQL DataLoader batch). */
    async recentDispatchesOf(tenantId: string, names: readonly string[], limit: number) {
      const rows = await withTenant(tenantId, (trx) => dispatchesStore.recentOf(trx, names, limit));
      return names.map((name) => rows.filter((row) => row.trigger_name === name).map(dispatchView));
    },
  };
}

export type TriggerService = ReturnType<typeof createTriggerService>;

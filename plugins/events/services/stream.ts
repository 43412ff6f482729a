// The stream's domain logic: emitting through the API, reading recent events
// and pages of them, the event type catalogue and custom types. Knows nothing
// of HTTP; routes, GraphQL and the CLI call it.
import {
  conflict, type EventInput, isValidEventType, isValidTypePattern, type KeysetPage, notFound, type TenantTransaction,
} from 'agent-platform/sdk';
import type { EventsContext } from './context.ts';
import { customTypesStore, type CustomTypeValues } from '../store/custom-types.ts';
import { cursorsStore, type EventFilter, eventsStore } from '../store/events.ts';
import { schemaProblem, schemaViolations } from '../stream/type-registry.ts';
import { invalid } from '../triggers/validation.ts';
import { streamEventView } from '../views/view.ts';
import { decodePosition, encodePosition, type StreamPosition } from '../stream/position.ts';

function checkTypePattern(type: string | undefined) {
  if (type && !isValidTypePattern(type)) {
    throw invalid([{ field: 'type', message: `"${type}" is not an event type or a pattern ending in *` }]);
  }
}

async function resolvePosition(trx: TenantTransaction, from: string | number): Promise<StreamPosition> {
  if (typeof from === 'number') return eventsStore.positionOfSeq(trx, from);
  const position = decodePosition(from);
  if (!position) throw invalid([{ field: 'after', message: `"${from}" is not a stream position` }]);
  return position;
}

export function createStreamService(context: EventsContext) {
  const { withTenant } = context;

  function customTypeProblems(type: string | undefined, values: CustomTypeValues) {
    const problems = [];
    if (type !== undefined && !isValidEventType(type)) problems.push({ field: 'type', message: `"${type}" is not an event type (letters, digits, _ and - separated by dots)` });
    const registered = type === undefined ? undefined : context.registry.registered(type);
    if (registered) problems.push({ field: 'type', message: `"${type}" is ${registered.builtin ? 'a built-in' : 'a plugin\'s'} event type (registered by the ${registered.plugin} plugin)` });
    const schemaIssue = values.schema ? schemaProblem(values.schema) : undefined;
    if (schemaIssue) problems.push({ field: 'schema', message: `not a usable JSON Schema: ${schemaIssue}` });
    if (problems.length > 0) throw invalid(problems);
    // A sample that does not conform is advice, like emission warnings.
    return values.schema && values.sample_payload
      ? schemaViolations(values.schema, values.sample_payload).map((v) => `sample_payload${v === '/' ? '' : v}`)
      : [];
  }

  return {
    emit: (tenantId: string, input: EventInput) => withTenant(tenantId, (trx) => context.emit(trx, tenantId, input)),

    async recent(tenantId: string, limit: number, type?: string) {
      checkTypePattern(type);
      return withTenant(tenantId, async (trx) => {
        const [rows, cursor, total] = await Promise.all([
          eventsStore.newest(trx, { limit, type }),
          cursorsStore.get(trx, tenantId),
          eventsStore.count(trx),
        ]);
        return { items: rows.map((row) => streamEventView(row, cursor)), total, skip: 0, limit };
      });
    },

    /** A keyset page of the list newest first, by sequence number (GraphQL; see eventsStore.page). */
    async page(tenantId: string, filter: EventFilter, page: KeysetPage<number>) {
      checkTypePattern(filter.type);
      return withTenant(tenantId, async (trx) => {
        const [rows, cursor] = await Promise.all([eventsStore.page(trx, filter, page), cursorsStore.get(trx, tenantId)]);
        return rows.map((row) => streamEventView(row, cursor));
      });
    },

    count: (tenantId: string, filter: EventFilter) => withTenant(tenantId, (trx) => eventsStore.countOf(trx, filter)),

    /** The events of these sequence numbers, in their order; null for one no longer kept (a GraphQL DataLoader batch). */
    async bySeqs(tenantId: string, seqs: readonly number[]) {
      return withTenant(tenantId, async (trx) => {
        const [rows, cursor] = await Promise.all([eventsStore.bySeqs(trx, seqs), cursorsStore.get(trx, tenantId)]);
        const views = new Map(rows.map((row) => [Number(row.seq), streamEventView(row, cursor)]));
        return seqs.map((seq) => views.get(Number(seq)) ?? null);
      });
    },

    /**
     * In stream order after a position (its text, see encodePosition) or after
     * the event with a number (`events tail --from-seq`, readers that kept one).
     */
    async after(tenantId: string, from: string | number, limit: number, type?: string, held?: TenantTransaction) {
      checkTypePattern(type);
      const read = async (trx: TenantTransaction) => {
        const position = await resolvePosition(trx, from);
        const [rows, cursor] = await Promise.all([eventsStore.after(trx, tenantId, position, limit, type), cursorsStore.get(trx, tenantId)]);
        return rows.map((row) => streamEventView(row, cursor));
      };
      return held ? read(held) : withTenant(tenantId, read);
    },

    /** The position of the stream's last readable event, as text (where a tail starts by default). */
    end: (tenantId: string) => withTenant(tenantId, async (trx) => encodePosition(await eventsStore.end(trx))),

    async types(tenantId: string, includeCustom: boolean) {
      // The types the loaded plugins registered, in registration order: built in when the plugin is one of the repository's own.
      const registered = context.registry.allRegistered().map(({ type, description, builtin }) => ({ type, description, builtin }));
      if (!includeCustom) return { items: registered };
      const custom = await withTenant(tenantId, (trx) => customTypesStore.all(trx));
      return { items: [...registered, ...custom.map((row) => ({ type: row.type, description: row.description, builtin: false }))] };
    },

    async createCustomType(tenantId: string, input: CustomTypeValues & { type: string }) {
      const warnings = customTypeProblems(input.type, input);
      const row = await withTenant(tenantId, async (trx) => {
        if (await customTypesStore.get(trx, input.type)) throw conflict(`Custom event type already exists: ${input.type}`, 'EVENT_TYPE_EXISTS');
        return customTypesStore.insert(trx, tenantId, input.type, input);
      });
      await context.registry.changed(tenantId);
      return { ...row, warnings };
    },

    listCustomTypes: (tenantId: string, skip: number, limit: number) =>
      withTenant(tenantId, (trx) => customTypesStore.list(trx, skip, limit)),

    async updateCustomType(tenantId: string, type: string, input: CustomTypeValues) {
      const warnings = customTypeProblems(undefined, input);
      const row = await withTenant(tenantId, (trx) => customTypesStore.update(trx, type, input));
      if (!row) throw notFound(`Custom event type not found: ${type}`, 'EVENT_TYPE_NOT_FOUND');
      await context.registry.changed(tenantId);
      return { ...row, warnings };
    },

    async deleteCustomType(tenantId: string, type: string) {
      if (!(await withTenant(tenantId, (trx) => customTypesStore.delete(trx, type)))) {
        throw notFound(`Custom event type not found: ${type}`, 'EVENT_TYPE_NOT_FOUND');
      }
      await context.registry.changed(tenantId);
    },
  };
}

export type StreamService = ReturnType<typeof createStreamService>;

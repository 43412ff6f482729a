// The staff backoffice: the list with its filters, sorting
// and pagination, and one occurrence with its type, history, messages,
// attachments and linked duplicates (reporters' contact data included: staff only).
import type { CoreServices, KeysetPage } from 'agent-platform/sdk';
import { occurrenceErrors } from '../errors.ts';
import { messagesStore } from '../store/messages.ts';
import { occurrencesStore, type ListFilter, type SortKey } from '../store/occurrences.ts';
import { typesStore } from '../store/types.ts';
import { staffOccurrence } from './views.ts';

export function createBackofficeService(core: CoreServices) {
  return {
    list: (tenantId: string, filter: ListFilter, sort: SortKey, skip: number, limit: number) => core.withTenant(tenantId, async (trx) => {
      const { items, total } = await occurrencesStore.list(trx, filter, sort, skip, limit);
      return { items: items.map(staffOccurrence), total, skip, limit };
    }),

    /** A keyset page of the list newest first (GraphQL; see occurrencesStore.page). */
    page: (tenantId: string, filter: ListFilter, page: KeysetPage<number>) => core.withTenant(tenantId, async (trx) =>
      (await occurrencesStore.page(trx, filter, page)).map(staffOccurrence)),

    count: (tenantId: string, filter: ListFilter) => core.withTenant(tenantId, (trx) => occurrencesStore.count(trx, filter)),

    /** The occurrences of these ids, in their order; null for one that does not exist (a GraphQL DataLoader batch). */
    findMany: (tenantId: string, ids: readonly number[]) => core.withTenant(tenantId, async (trx) => {
      const rows = new Map((await occurrencesStore.findMany(trx, ids)).map((row) => [row.id, staffOccurrence(row)]));
      return ids.map((id) => rows.get(id) ?? null);
    }),

    /** The types of these ids as the occurrence detail shows them ({id, name, code}), in their order; null for one that does not exist. */
    typesOf: (tenantId: string, ids: readonly number[]) => core.withTenant(tenantId, async (trx) => {
      const rows = new Map((await typesStore.findMany(trx, ids)).map((row) => [row.id, { id: row.id, name: row.name, code: row.code }]));
      return ids.map((id) => rows.get(id) ?? null);
    }),

    find: (tenantId: string, id: number) => core.withTenant(tenantId, async (trx) => {
      const row = await occurrencesStore.find(trx, id);
      return row ? staffOccurrence(row) : null;
    }),

    get: (tenantId: string, id: number) => core.withTenant(tenantId, async (trx) => {
      const row = await occurrencesStore.find(trx, id);
      if (!row) throw occurrenceErrors.occurrenceNotFound();
      const [type, history, messages, duplicates] = await Promise.all([
        typesStore.find(trx, row.type_id), occurrencesStore.history(trx, id), messagesStore.ofOccurrence(trx, id), occurrencesStore.duplicatesOf(trx, id),
      ]);
      return {
        ...staffOccurrence(row),
        type: type ? { id: type.id, name: type.name, code: type.code } : null,
        history, messages, duplicates,
      };
    }),
  };
}

export type BackofficeService = ReturnType<typeof createBackofficeService>;

// The staff backoffice: the list with its filters, sorting
// and pagination, and one occurrence with its type, history, messages,
// attachments and linked duplicates (reporters' contact data included: staff only).
import type { CoreServices } from 'agent-platform/sdk';
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

    /** Newest first, `limit` rows after a cursor id (GraphQL). */
    page: (tenantId: string, filter: ListFilter, limit: number) => core.withTenant(tenantId, async (trx) =>
      (await occurrencesStore.page(trx, filter, limit)).map(staffOccurrence)),

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

// Reading and editing what was imported: specs (list, get, delete with their
// functions) and functions (list by source spec and status, get, edit the
// description, which then survives re-syncs).
import { isUuid, type KeysetPage, notFound } from 'agent-platform/sdk';
import { definitionEvent } from '../announce/events.ts';
import type { IntegrationsContext } from './context.ts';
import { functionsStore, type FunctionFilter } from '../store/functions.ts';
import { specsStore } from '../store/specs.ts';
import { functionView, specView } from '../views/view.ts';

export function createCatalogService(context: IntegrationsContext) {
  const { withTenant } = context;
  const specMissing = (id: string) => notFound(`Spec not found: ${id}`, 'SPEC_NOT_FOUND');
  const functionMissing = (name: string) => notFound(`Imported function not found: ${name}`, 'FUNCTION_NOT_FOUND');

  return {
    async listSpecs(tenantId: string, skip: number, limit: number) {
      const page = await withTenant(tenantId, (trx) => specsStore.list(trx, skip, limit));
      return { items: page.items.map(specView), total: page.total };
    },

    /** A keyset page of specs by name (GraphQL). */
    specsPage: async (tenantId: string, page: KeysetPage<string>) =>
      (await withTenant(tenantId, (trx) => specsStore.page(trx, page))).map(specView),

    countSpecs: (tenantId: string) => withTenant(tenantId, (trx) => specsStore.count(trx)),

    /** Several specs by id (GraphQL's batched references); missing or malformed ids are left out. */
    specsByIds: async (tenantId: string, ids: readonly string[]) =>
      (await withTenant(tenantId, (trx) => specsStore.byIds(trx, ids.filter(isUuid)))).map(specView),

    async getSpec(tenantId: string, id: string) {
      if (!isUuid(id)) throw specMissing(id);
      const row = await withTenant(tenantId, (trx) => specsStore.get(trx, id));
      if (!row) throw specMissing(id);
      return specView(row);
    },

    /** Deletes the spec and its functions; each function's deletion is announced. */
    async deleteSpec(tenantId: string, id: string) {
      if (!isUuid(id)) throw specMissing(id);
      await withTenant(tenantId, async (trx) => {
        const spec = await specsStore.lock(trx, id);
        if (!spec) throw specMissing(id);
        const functions = await functionsStore.namesOfSpec(trx, id);
        await specsStore.delete(trx, id);
        await context.announce(trx, tenantId, functions.map((fn) => definitionEvent('definition.deleted', {
          name: fn.name, version: fn.version, spec_id: id, spec_name: spec.name, status: fn.status,
        })));
      });
      context.invalidate(tenantId);
    },

    async listFunctions(tenantId: string, filter: FunctionFilter, skip: number, limit: number) {
      const page = await withTenant(tenantId, (trx) => functionsStore.list(trx, filter, skip, limit));
      return { items: page.items.map(functionView), total: page.total };
    },

    /** A keyset page of imported functions by name (GraphQL). */
    functionsPage: async (tenantId: string, filter: FunctionFilter, page: KeysetPage<string>) =>
      (await withTenant(tenantId, (trx) => functionsStore.page(trx, filter, page))).map(functionView),

    countFunctions: (tenantId: string, filter: FunctionFilter) => withTenant(tenantId, (trx) => functionsStore.count(trx, filter)),

    async getFunction(tenantId: string, name: string) {
      const row = await withTenant(tenantId, (trx) => functionsStore.get(trx, name));
      if (!row) throw functionMissing(name);
      return functionView(row);
    },

    async editDescription(tenantId: string, name: string, description: string) {
      const row = await withTenant(tenantId, async (trx) => {
        const current = await functionsStore.get(trx, name);
        if (!current) throw functionMissing(name);
        if (current.description === description && current.description_edited) return current;
        const updated = await functionsStore.editDescription(trx, name, description);
        await context.announce(trx, tenantId, [definitionEvent('definition.updated', {
          name, version: updated!.version, spec_id: current.spec_id, spec_name: current.source, operation: current.operation_key,
          changed_fields: ['description'], status: current.status,
        })]);
        return (await functionsStore.get(trx, name))!;
      });
      context.invalidate(tenantId);
      return functionView(row);
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;

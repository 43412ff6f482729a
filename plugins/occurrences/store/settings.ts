// SQL of a tenant's occurrence settings (its service area); always in a tenant transaction.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

export const settingsStore = {
  serviceArea: async (trx: TenantTransaction) =>
    (await trx.selectFrom('occurrence_settings').select('service_area').executeTakeFirst())?.service_area ?? null,

  setServiceArea: (trx: TenantTransaction, tenantId: string, area: Record<string, unknown> | null) =>
    trx.insertInto('occurrence_settings').values({ tenant_id: tenantId, service_area: JSON.stringify(area) })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ service_area: JSON.stringify(area), updated_at: sql<Date>`now()` as never }))
      .execute(),
};

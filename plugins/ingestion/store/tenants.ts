// The tenants the reconciler's cron pass visits. `tenants` is core's global
// table, read with the system handle (no tenant rows are read through it);
// each tenant's work then runs in its own withTenant.
import type { CoreServices } from 'agent-platform/sdk';

export const tenantsStore = {
  ids: async (db: CoreServices['db']) =>
    (await db.selectFrom('tenants').select('id').orderBy('id').execute()).map((row) => row.id),
};

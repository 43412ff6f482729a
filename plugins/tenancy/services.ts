// The one factory of the tenancy plugin's services: its register and its CLI
// commands both build them here, from the core's services.
import type { CoreServices } from 'agent-platform/sdk';
import type { TenancyApi } from './api.ts';
import { createMembers } from './services/members.ts';
import { createServiceAccounts } from './services/service-accounts.ts';
import { createTenancyService } from './services/tenancy.ts';

export function createServices(core: CoreServices) {
  const api: TenancyApi = { serviceAccounts: createServiceAccounts(core), members: createMembers(core) };
  return { tenancy: createTenancyService(core), api };
}

export type TenancyServices = ReturnType<typeof createServices>;

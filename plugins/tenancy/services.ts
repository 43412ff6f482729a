// The one factory of the tenancy plugin's services: its register and its CLI
// commands both build them here, from the core's services.
import type { CoreServices } from 'agent-platform/sdk';
import type { TenancyApi } from './api.ts';
import type { TenancyOptions } from './options.ts';
import { createMembers } from './services/members.ts';
import { OriginDirectory, PUBLIC_ORIGINS_CHANNEL } from './services/origin-directory.ts';
import { createPublicOriginsService } from './services/public-origins.ts';
import { createServiceAccounts } from './services/service-accounts.ts';
import { createTenancyService } from './services/tenancy.ts';
import { publicOriginsStore } from './store/public-origins.ts';

export function createServices(core: CoreServices, options: TenancyOptions = { allowLocalhostOrigins: false }) {
  const api: TenancyApi = { serviceAccounts: createServiceAccounts(core), members: createMembers(core) };
  const originDirectory = new OriginDirectory(() => publicOriginsStore.directory(core.db));
  core.invalidation.subscribe(PUBLIC_ORIGINS_CHANNEL, { message: () => originDirectory.forget(), missed: () => originDirectory.forget() });
  return {
    tenancy: createTenancyService(core),
    publicOrigins: createPublicOriginsService(core, options, originDirectory),
    originDirectory,
    api,
  };
}

export type TenancyServices = ReturnType<typeof createServices>;

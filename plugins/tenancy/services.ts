// The one factory of the tenancy plugin's services: its register and its CLI
// commands both build them here, from the core's services.
import type { CoreServices } from 'agent-platform/sdk';
import { createTenancyService } from './service.ts';

export function createServices(core: CoreServices) {
  return { tenancy: createTenancyService(core) };
}

export type TenancyServices = ReturnType<typeof createServices>;

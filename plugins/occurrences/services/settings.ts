// A tenant's occurrence settings: its service area (staff admin).
import type { CoreServices } from 'agent-platform/sdk';
import { settingsStore } from '../store/settings.ts';

export function createSettingsService(core: CoreServices) {
  return {
    get: (tenantId: string) => core.withTenant(tenantId, async (trx) => ({ service_area: await settingsStore.serviceArea(trx) })),
    put: (tenantId: string, area: Record<string, unknown> | null) => core.withTenant(tenantId, async (trx) => {
      await settingsStore.setServiceArea(trx, tenantId, area);
      return { service_area: area };
    }),
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;

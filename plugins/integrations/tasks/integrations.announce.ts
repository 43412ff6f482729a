// Emits the definition.* events a CLI command recorded (see events.ts). The
// job was enqueued with the changes it announces, so it runs only if they
// committed; a retry after a crash may emit them again (at least once).
import type { CoreServices, EventInput } from 'agent-platform/sdk';

export function announceTask(core: Pick<CoreServices, 'withTenant' | 'events'>) {
  return async (payload: { tenant_id: string; events: EventInput[] }) => {
    await core.withTenant(payload.tenant_id, async (trx) => {
      for (const event of payload.events) await core.events.emit(trx, payload.tenant_id, event);
    });
  };
}

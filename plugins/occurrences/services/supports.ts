// Citizens' support of an existing report: instead of filing a duplicate, a
// citizen adds their voice to it. Counted on the occurrence once per client
// (a hash of the tenant and the client address: the address is never stored)
// within the support window; a report in a final state takes no support.
import { createHash } from 'node:crypto';
import type { CoreServices } from 'agent-platform/sdk';
import { occurrenceErrors } from '../errors.ts';
import type { OccurrencesOptions } from '../options.ts';
import { occurrencesStore } from '../store/occurrences.ts';
import { statesStore } from '../store/states.ts';
import { supportsStore } from '../store/supports.ts';

export function createSupportsService(core: CoreServices, options: OccurrencesOptions) {
  return {
    support: (tenantId: string, reference: string, clientAddress: string) => core.withTenant(tenantId, async (trx) => {
      const row = await occurrencesStore.findByReference(trx, reference);
      if (!row) throw occurrenceErrors.occurrenceNotFound();
      if ((await statesStore.finalKeys(trx)).includes(row.state)) throw occurrenceErrors.occurrenceClosed(row.state);
      const now = core.clock.now();
      const since = new Date(now.getTime() - options.supportWindowHours * 3_600_000);
      const clientHash = createHash('sha256').update(`${tenantId}\u0000${clientAddress}`).digest('base64url');
      const counted = await supportsStore.record(trx, tenantId, row.id, clientHash, now, since);
      const supportCount = counted ? await supportsStore.increment(trx, row.id) : row.support_count;
      return { reference: row.reference, support_count: supportCount, counted };
    }),
  };
}

export type SupportsService = ReturnType<typeof createSupportsService>;

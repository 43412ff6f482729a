// `events.backfill`: a backfill the CLI asked for. The CLI has no workflows
// plugin to start workflows with, so it records the request and enqueues this
// job (in the tenant's dispatcher queue); a server worker runs it and stores
// the result or the error in the same transaction, and the CLI polls the row.
import type { FastTaskHandler } from 'agent-platform/sdk';
import { runBackfill, type BackfillOptions } from '../dispatch/backfill.ts';
import type { EventsContext } from '../services/context.ts';
import { isPermanentFailure } from '../store/starter.ts';
import { backfillsStore } from '../store/triggers.ts';

export const backfillTask = (context: EventsContext): FastTaskHandler =>
  (payload: { tenant_id: string; request_id: string }) =>
    context.withTenant(payload.tenant_id, async (trx) => {
      const request = await backfillsStore.get(trx, payload.request_id);
      if (!request || request.finished_at) return;
      const { since, limit } = request.request as { since?: string; limit: number };
      const options: BackfillOptions = { since: since ? new Date(since) : undefined, limit };
      try {
        const result = await runBackfill(context, trx, payload.tenant_id, request.trigger_name, options);
        await backfillsStore.finish(trx, request.id, { result: { ...result } });
      } catch (err) {
        if (!isPermanentFailure(err)) throw err;
        const boom = err as { output?: { payload: { message: string } } };
        await backfillsStore.finish(trx, request.id, { error: boom.output?.payload.message ?? (err as Error).message });
      }
    });

// approvalResolved: settled cases pushed to a tenant's GraphQL subscribers.
// Cases are settled in any process (a decision, a job), so each process with
// subscribers polls the tenant's recently settled cases (one query per tenant
// every pollMs, only while someone listens): it works across processes and on
// the embedded PGlite alike, where NOTIFY does not cross connections. A case
// is looked for again for a few seconds after its resolved_at (a transaction
// stamps resolved_at when it starts, and commits later), and delivered once.
//
// Delivery is live, at most once, while connected: a subscriber that
// reconnects catches up with the approvals query (status filter).
import type { Logger } from 'pino';
import { Repeater, SlidingBuffer } from 'agent-platform/sdk';
import type { WithTenant } from 'agent-platform/sdk';
import type { ApprovalCase } from '../api.ts';
import { casesStore } from '../store/approvals.ts';

const SUBSCRIBER_BUFFER = 1000;
/** How far back a poll looks: longer than a settling transaction takes to commit. */
const LOOKBACK_MS = 10_000;
const PER_POLL = 500;

type Listener = (row: ApprovalCase) => void;

interface TenantWatch {
  listeners: Set<Listener>;
  timer: NodeJS.Timeout | undefined;
  since: Date | undefined;
  startedAt: number;
  /** Ids delivered within the lookback, with their resolved_at. */
  seen: Map<string, number>;
}

export function createLive(deps: { withTenant: WithTenant; logger: Logger; pollMs: number }) {
  const watches = new Map<string, TenantWatch>();
  const stoppers = new Set<() => void>();

  async function poll(tenantId: string, watch: TenantWatch) {
    try {
      const first = watch.since === undefined;
      const { rows, now } = await deps.withTenant(tenantId, async (trx) => {
        const now = await casesStore.now(trx);
        const since = new Date((watch.since ?? now).getTime() - LOOKBACK_MS);
        return { rows: await casesStore.resolvedSince(trx, since, PER_POLL), now };
      });
      for (const row of rows) {
        if (watch.seen.has(row.id)) continue;
        watch.seen.set(row.id, row.resolved_at!.getTime());
        // The first poll only notes what was settled before anyone subscribed (by this process's clock).
        if (!first || row.resolved_at!.getTime() >= watch.startedAt) for (const listener of watch.listeners) listener(row);
      }
      watch.since = now;
      for (const [id, at] of watch.seen) if (at < now.getTime() - 2 * LOOKBACK_MS) watch.seen.delete(id);
    } catch (err) {
      deps.logger.warn({ err, tenantId }, 'approvals: polling settled cases failed');
    }
    if (watches.get(tenantId) === watch && watch.listeners.size > 0) {
      watch.timer = setTimeout(() => void poll(tenantId, watch), deps.pollMs);
      watch.timer.unref();
    }
  }

  return {
    /** The settled cases of one tenant, as they come (from the moment of subscribing). */
    subscribe(tenantId: string): AsyncIterableIterator<ApprovalCase> {
      return new Repeater<ApprovalCase>(async (push, stop) => {
        const listener: Listener = (row) => void push(row);
        let watch = watches.get(tenantId);
        if (!watch) {
          watch = { listeners: new Set(), timer: undefined, since: undefined, startedAt: Date.now(), seen: new Map() };
          watches.set(tenantId, watch);
        }
        watch.listeners.add(listener);
        stoppers.add(stop);
        if (watch.listeners.size === 1) void poll(tenantId, watch);
        await stop;
        stoppers.delete(stop);
        watch.listeners.delete(listener);
        if (watch.listeners.size === 0) {
          clearTimeout(watch.timer);
          watches.delete(tenantId);
        }
      }, new SlidingBuffer(SUBSCRIBER_BUFFER));
    },

    /** Ends every subscription: the server is stopping. */
    close() {
      for (const stop of [...stoppers]) stop();
    },
  };
}

export type Live = ReturnType<typeof createLive>;

// Open SSE streams per tenant, counted across processes: a tenant past
// CHAT_MAX_CONCURRENT_STREAMS_PER_TENANT gets 429 before anything starts.
// Each admitted stream is a row of chat_open_streams (store/streams.ts) with
// this process's runner id, deleted when the response ends; a process that
// dies stops counting when its heartbeat goes stale. Running turns are counted
// across processes too (store/turn-start.ts). A tenant's admissions hold its
// lock until they commit, so the streams a process is asked for at once are
// admitted together, first come first admitted, in one transaction of three
// round trips (the lock, the count with the inserts, the commit); those that
// arrive meanwhile go in the next one (no timer: an idle tenant's stream is
// admitted at once).
import { randomUUID } from 'node:crypto';
import { domainError, type WithTenant } from 'agent-platform/sdk';
import type { Logger } from 'pino';
import { streamsStore } from '../store/streams.ts';
import { TenantBatches } from './tenant-batches.ts';

/** Seconds a refused client should wait: streams end with their turn, which is usually seconds away. */
export const STREAM_RETRY_AFTER_SECONDS = 5;
/** Streams admitted in one transaction at most (the statement's parameters stay small). */
const MAX_BATCH = 250;
/** Tries of a release whose delete failed (the database unreachable), a second apart; then the row waits for the sweep. */
const RELEASE_TRIES = 3;

export interface StreamSlotsSettings {
  limit: number;
  /** The runner id of this process (its chat_runners row). */
  runnerId: string;
  /** A runner without a heartbeat this long is dead: its streams do not count. */
  staleSeconds: number;
}

export class StreamSlots {
  /** Admits a tenant's streams asked for at once in one transaction: whether each is admitted. */
  private readonly admissions = new TenantBatches<string, boolean>((tenantId, ids) => this.admit(tenantId, ids), MAX_BATCH);
  private readonly withTenant: WithTenant;
  private readonly settings: StreamSlotsSettings;
  private readonly logger: Logger;

  constructor(withTenant: WithTenant, settings: StreamSlotsSettings, logger: Logger) {
    this.withTenant = withTenant;
    this.settings = settings;
    this.logger = logger;
  }

  /** Takes a slot for the tenant (429 when none is free); returns its release, which may be called any number of times. */
  async take(tenantId: string): Promise<() => void> {
    const id = randomUUID();
    if (!(await this.admissions.submit(tenantId, id))) {
      const error = domainError(429, `Too many open chat streams for this tenant (limit ${this.settings.limit}); retry later`, 'STREAM_LIMIT_EXCEEDED');
      error.output.headers['Retry-After'] = String(STREAM_RETRY_AFTER_SECONDS);
      throw error;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      void this.release(tenantId, id, 1);
    };
  }

  private async admit(tenantId: string, ids: string[]): Promise<boolean[]> {
    const { limit, runnerId, staleSeconds } = this.settings;
    const admitted = await this.withTenant(tenantId, async (trx) => {
      await streamsStore.lock(trx, tenantId);
      return streamsStore.admit(trx, { ids, tenantId, runnerId, limit, staleSeconds });
    });
    return ids.map((id) => admitted.has(id));
  }

  private async release(tenantId: string, id: string, attempt: number): Promise<void> {
    try {
      await this.withTenant(tenantId, (trx) => streamsStore.close(trx, id));
    } catch (err) {
      if (attempt >= RELEASE_TRIES) {
        this.logger.warn({ err, tenantId }, 'chat: a stream slot could not be given back; it counts until this process stops');
        return;
      }
      setTimeout(() => void this.release(tenantId, id, attempt + 1), 1000).unref();
    }
  }
}

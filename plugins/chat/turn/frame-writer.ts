// Persists published frames in batches across every stream of the process:
// a flush writes one row per turn (its frames since the last flush, as a JSON
// array) in one INSERT per tenant (each tenant's rows under its own
// row-level security). A flush runs `flushMs` after the first frame queued
// since the last one, or at once when FLUSH_AT_FRAMES frames are queued,
// whichever comes first: 500 streams at 20 tokens/s cost a handful of
// statements per flush, not 10 000 writes a second, and a burst does not
// grow one statement without bound. Readers in other processes poll these
// rows. Flushes run one at a time, so a turn's batches commit in seq order.
import type { Logger } from 'pino';
import type { TenantTransaction, WithTenant } from 'agent-platform/sdk';
import { framesStore } from '../store/turns.ts';

/** Queued frames (all turns) that start a flush before its time. */
export const FLUSH_AT_FRAMES = 4096;

interface Pending {
  tenantId: string;
  first: number;
  items: string[];
}

export interface FrameBatch {
  tenant_id: string;
  turn_id: string;
  first_seq: number;
  last_seq: number;
  frames: string;
}

export class FrameWriter {
  private queued = new Map<string, Pending>();
  /** Frames added since the last flush began (or was started by their number). */
  private count = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly withTenant: WithTenant;
  private readonly flushMs: number;
  private readonly logger: Logger;

  constructor(withTenant: WithTenant, flushMs: number, logger: Logger) {
    this.withTenant = withTenant;
    this.flushMs = flushMs;
    this.logger = logger;
  }

  add(tenantId: string, turnId: string, seq: number, json: string): void {
    const entry = this.queued.get(turnId);
    if (entry) entry.items.push(json);
    else this.queued.set(turnId, { tenantId, first: seq, items: [json] });
    if (++this.count >= FLUSH_AT_FRAMES) {
      this.count = 0;
      clearTimeout(this.timer);
      this.timer = undefined;
      void this.flush();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.flushMs);
  }

  /** Writes everything pending now (after any flush in progress). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  /**
   * Waits for a flush in progress, then takes what is pending for one turn
   * out of the writer: the caller writes it in its own transaction (the one
   * that ends or suspends the turn), so that the turn's state and all its
   * frames commit together.
   */
  async take(turnId: string): Promise<FrameBatch | undefined> {
    await this.flushing;
    const entry = this.queued.get(turnId);
    if (!entry) return undefined;
    this.queued.delete(turnId);
    return batchOf(turnId, entry);
  }

  /**
   * Gives back a batch taken for a transaction that did not commit: its
   * frames go in front of anything the turn published since.
   */
  putBack(batch: FrameBatch): void {
    const items = (JSON.parse(batch.frames) as unknown[]).map((frame) => JSON.stringify(frame));
    this.requeue(batch, { tenantId: batch.tenant_id, first: batch.first_seq, items });
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.flushMs);
  }

  /** The frames of a turn not flushed yet (JSON, from seq `first` on), for a reader catching up. */
  pending(turnId: string): { first: number; items: readonly string[] } | undefined {
    const entry = this.queued.get(turnId);
    return entry ? { first: entry.first, items: entry.items } : undefined;
  }

  async writeIn(trx: TenantTransaction, batches: FrameBatch[]): Promise<void> {
    await framesStore.insertBatches(trx, batches);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.queued.size === 0) return;
    const taken = this.queued;
    this.queued = new Map();
    this.count = 0;
    const byTenant = new Map<string, FrameBatch[]>();
    for (const [turnId, entry] of taken) {
      const list = byTenant.get(entry.tenantId) ?? [];
      list.push(batchOf(turnId, entry));
      byTenant.set(entry.tenantId, list);
    }
    await Promise.all([...byTenant].map(async ([tenantId, batches]) => {
      try {
        await this.withTenant(tenantId, (trx) => framesStore.insertBatches(trx, batches));
      } catch (err) {
        // Put them back in front of anything newer; the next flush tries again.
        this.logger.warn({ err, tenantId, turns: batches.length }, 'chat: writing frames failed; retrying');
        for (const batch of batches) this.requeue(batch, taken.get(batch.turn_id)!);
      }
    }));
    if (this.queued.size > 0 && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, this.flushMs);
    }
  }

  private requeue(batch: FrameBatch, entry: Pending): void {
    const newer = this.queued.get(batch.turn_id);
    this.queued.set(batch.turn_id, newer
      ? { tenantId: entry.tenantId, first: entry.first, items: [...entry.items, ...newer.items] }
      : entry);
  }
}

function batchOf(turnId: string, entry: Pending): FrameBatch {
  return {
    tenant_id: entry.tenantId,
    turn_id: turnId,
    first_seq: entry.first,
    last_seq: entry.first + entry.items.length - 1,
    frames: `[${entry.items.join(',')}]`,
  };
}

// The turns this process runs: their abort controllers and frame channels.
// A cancel that lands in this process aborts at once; one that lands in
// another process is seen here by a short poll of the turns' status (one
// query per tenant per interval for all local turns, not one per turn). The
// process's heartbeat row lets others finish the turns of a process that died.
import type { Logger } from 'pino';
import type { Kysely } from 'kysely';
import type { Database, WithTenant } from 'agent-platform/sdk';
import { runnersStore, turnsStore } from '../store/turns.ts';
import type { TurnChannel } from './channel.ts';

export interface LocalRun {
  tenantId: string;
  turnId: string;
  controller: AbortController;
  channel: TurnChannel;
  /** Settles when the run has ended (finished, suspended or failed). */
  done: Promise<void>;
}

export class LocalRuns {
  readonly runnerId: string;
  private readonly runs = new Map<string, LocalRun>();
  private pollTimer: NodeJS.Timeout | undefined;
  private beatTimer: NodeJS.Timeout | undefined;
  private polling = false;
  private readonly db: Kysely<Database>;
  private readonly withTenant: WithTenant;
  private readonly logger: Logger;

  constructor(runnerId: string, db: Kysely<Database>, withTenant: WithTenant, logger: Logger) {
    this.runnerId = runnerId;
    this.db = db;
    this.withTenant = withTenant;
    this.logger = logger;
  }

  async start(cancelPollMs: number, heartbeatMs: number): Promise<void> {
    await runnersStore.register(this.db, this.runnerId);
    this.pollTimer = setInterval(() => void this.pollCancels(), cancelPollMs);
    this.beatTimer = setInterval(() => {
      runnersStore.heartbeat(this.db, this.runnerId).catch((err) => this.logger.warn({ err }, 'chat: heartbeat failed'));
    }, heartbeatMs);
    this.pollTimer.unref();
    this.beatTimer.unref();
  }

  get(turnId: string): LocalRun | undefined {
    return this.runs.get(turnId);
  }

  get size(): number {
    return this.runs.size;
  }

  add(run: LocalRun): void {
    this.runs.set(run.turnId, run);
    void run.done.finally(() => {
      if (this.runs.get(run.turnId) === run) this.runs.delete(run.turnId);
    });
  }

  /** A cancel reached this process: abort the model request or tool wait now. */
  abort(turnId: string): boolean {
    const run = this.runs.get(turnId);
    if (!run) return false;
    run.controller.abort();
    return true;
  }

  /** Stops polling, aborts every local run and waits for them to record how they ended. */
  async stop(): Promise<void> {
    clearInterval(this.pollTimer);
    clearInterval(this.beatTimer);
    const runs = [...this.runs.values()];
    for (const run of runs) run.controller.abort(new Error('shutdown'));
    await Promise.allSettled(runs.map((run) => run.done));
    await runnersStore.remove(this.db, this.runnerId).catch(() => {});
  }

  private async pollCancels(): Promise<void> {
    if (this.polling || this.runs.size === 0) return;
    this.polling = true;
    try {
      const byTenant = new Map<string, string[]>();
      for (const run of this.runs.values()) {
        if (run.controller.signal.aborted) continue;
        const list = byTenant.get(run.tenantId) ?? [];
        list.push(run.turnId);
        byTenant.set(run.tenantId, list);
      }
      for (const [tenantId, ids] of byTenant) {
        const cancelled = await this.withTenant(tenantId, (trx) => turnsStore.cancelled(trx, ids, this.runnerId));
        for (const row of cancelled) this.abort(row.id);
      }
    } catch (err) {
      this.logger.warn({ err }, 'chat: polling for cancels failed');
    } finally {
      this.polling = false;
    }
  }
}

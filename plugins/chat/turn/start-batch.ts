// Starts new turns in batches, one transaction per tenant at a time. Every
// start of a tenant in every process takes the tenant's chat_tenant_state row
// lock (so the count of running turns never overshoots
// CHAT_MAX_CONCURRENT_TURNS_PER_TENANT) and holds it until its commit: one
// transaction per start would make hundreds of concurrent questions wait for
// each other's round trips, and each would also pay its own reads. Starts
// that arrive while a tenant's batch is being written wait for it and go in
// the next one (no timer: an idle tenant's start is written at once). A batch
// is one transaction: each selected client read once, every session read in
// one statement, each start checked (ownership, an unfinished turn) and built,
// then the lock, the count, one statement for every question, turn and
// session activity, each started turn's announcement (agent.loop.started),
// the commit. A start refused (ownership, busy, past the limit) stores nothing
// and does not affect the others of its batch.
import type { TenantTransaction, WithTenant } from 'agent-platform/sdk';
import { findClient, resolveCaller, type Actor, type Caller, type ClientRow, type SelectedClient } from '../sessions/caller.ts';
import { turnStartStore, type TurnStartRead, type TurnStartValues } from '../store/turn-start.ts';

/** Starts written in one transaction at most (the statements' parameters stay small). */
const MAX_BATCH = 250;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a start makes of its caller and session: the turn to write, or the unfinished turn that makes the session busy. */
export type Built<T> = { values: Omit<TurnStartValues, 'session_id'>; started: T } | { busy: { id: string; status: string } };

export interface TurnStartRequest<T> {
  principal: Actor;
  selected: SelectedClient;
  sessionId: string;
  /** Checks ownership (throws a 4xx) and builds the turn from the caller and the session read in the batch (undefined: none). */
  build(caller: Caller, session: TurnStartRead | undefined): Built<T>;
  /** Emits what announces the started turn, in the transaction that writes it. */
  announce(trx: TenantTransaction, started: T, userMessageId: number): Promise<void>;
}

/** A start's outcome: written (with what build made and the question's id), or why not. */
export type TurnStartOutcome<T> =
  | { started: T; userMessageId: number }
  | { busy: { id: string; status: string } | undefined }
  | { refused: 'limit' }
  | { failed: unknown };

interface Waiting {
  request: TurnStartRequest<unknown>;
  resolve(outcome: TurnStartOutcome<unknown>): void;
}

export class TurnStartBatcher {
  private readonly queues = new Map<string, Waiting[]>();
  private readonly withTenant: WithTenant;
  private readonly runnerId: string;
  private readonly maxRunning: number;
  private readonly historyLimit: number;

  constructor(withTenant: WithTenant, settings: { runnerId: string; maxRunning: number; historyLimit: number }) {
    this.withTenant = withTenant;
    this.runnerId = settings.runnerId;
    this.maxRunning = settings.maxRunning;
    this.historyLimit = settings.historyLimit;
  }

  /** Starts a turn with the others of its tenant queued in this process. */
  start<T>(tenantId: string, request: TurnStartRequest<T>): Promise<TurnStartOutcome<T>> {
    return new Promise((resolve) => {
      const waiting = { request, resolve } as Waiting;
      const queue = this.queues.get(tenantId);
      if (queue) {
        queue.push(waiting);
        return;
      }
      this.queues.set(tenantId, [waiting]);
      void this.drain(tenantId);
    });
  }

  /** Writes the tenant's queued starts a batch at a time until none is left. */
  private async drain(tenantId: string): Promise<void> {
    const queue = this.queues.get(tenantId)!;
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH);
      try {
        const outcomes = await this.withTenant(tenantId, (trx) => this.writeBatch(trx, tenantId, batch.map((w) => w.request)));
        batch.forEach((waiting, i) => waiting.resolve(outcomes[i]));
      } catch (err) {
        for (const waiting of batch) waiting.resolve({ failed: err });
      }
    }
    this.queues.delete(tenantId);
  }

  private async writeBatch(trx: TenantTransaction, tenantId: string, requests: TurnStartRequest<unknown>[]): Promise<TurnStartOutcome<unknown>[]> {
    // Each client named in the batch is read once (the same transaction gives the same answer).
    const clients = new Map<SelectedClient, Promise<ClientRow | undefined>>();
    const find = (t: TenantTransaction, selected: SelectedClient) => {
      let found = clients.get(selected);
      if (!found) clients.set(selected, found = findClient(t, selected));
      return found;
    };
    const callers: (Caller | { failed: unknown })[] = [];
    for (const request of requests) {
      callers.push(await resolveCaller(trx, tenantId, request.principal, request.selected, find).catch((err: unknown) => ({ failed: err })));
    }
    const ids = [...new Set(requests.map((r) => r.sessionId).filter((id) => UUID.test(id)))];
    const sessions = ids.length > 0 ? await turnStartStore.readMany(trx, ids, this.historyLimit) : new Map<string, TurnStartRead>();

    const outcomes: (TurnStartOutcome<unknown> | undefined)[] = [];
    const accepted: { index: number; built: Extract<Built<unknown>, { values: unknown }> }[] = [];
    const running = new Set<string>();
    for (const [index, request] of requests.entries()) {
      const caller = callers[index];
      if ('failed' in caller) {
        outcomes.push(caller);
        continue;
      }
      let built: Built<unknown>;
      try {
        built = request.build(caller, sessions.get(request.sessionId));
      } catch (err) {
        outcomes.push({ failed: err });
        continue;
      }
      if ('busy' in built) outcomes.push({ busy: built.busy });
      // Two questions of one session in one batch: the first is written, the other finds the session busy.
      else if (running.has(request.sessionId)) outcomes.push({ busy: undefined });
      else {
        running.add(request.sessionId);
        accepted.push({ index, built });
        outcomes.push(undefined);
      }
    }
    if (accepted.length === 0) return outcomes as TurnStartOutcome<unknown>[];

    const free = Math.max(0, this.maxRunning - await turnStartStore.lockAndCountRunning(trx, tenantId));
    for (const { index } of accepted.slice(free)) outcomes[index] = { refused: 'limit' };
    const writing = accepted.slice(0, free);
    if (writing.length === 0) return outcomes as TurnStartOutcome<unknown>[];
    const written = await turnStartStore.writeMany(trx, tenantId, this.runnerId,
      writing.map(({ index, built }) => ({ ...built.values, session_id: requests[index].sessionId })));
    for (const { index, built } of writing) {
      const userMessageId = written.get(built.values.turn_id) ?? null;
      if (userMessageId === null) {
        // Another process started a turn in the session meanwhile (the unique index on unfinished turns).
        outcomes[index] = { busy: undefined };
        continue;
      }
      await requests[index].announce(trx, built.started, userMessageId);
      outcomes[index] = { started: built.started, userMessageId };
    }
    return outcomes as TurnStartOutcome<unknown>[];
  }
}

// Starts new turns in batches, one transaction per tenant at a time. Every
// start of a tenant in every process takes the tenant's chat_tenant_state row
// lock (so the count of running turns never overshoots
// CHAT_MAX_CONCURRENT_TURNS_PER_TENANT) and holds it until its commit: one
// transaction per start would make hundreds of concurrent questions wait for
// each other's round trips, and each would also pay its own reads. Starts
// that arrive while a tenant's batch is being written wait for it and go in
// the next one (no timer: an idle tenant's start is written at once). A batch
// is one transaction of three round trips whatever its size: the lock with
// every client and session the starts name (store/turn-start.ts), then, each
// start checked (ownership, an unfinished turn) and built, the count and one
// statement for every question, turn and session activity, each started
// turn's announcement (agent.loop.started), the commit. A start refused
// (ownership, busy, past the limit) stores nothing and does not affect the
// others of its batch.
import { isUuid, type TenantTransaction, type WithTenant } from 'agent-platform/sdk';
import { resolveCaller, type Actor, type Caller, type SelectedClient } from '../sessions/caller.ts';
import { turnStartStore, type TurnStartRead, type TurnStartValues } from '../store/turn-start.ts';
import { TenantBatches } from '../services/tenant-batches.ts';

/** Starts written in one transaction at most (the statements' parameters stay small). */
const MAX_BATCH = 250;

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

export class TurnStartBatcher {
  private readonly batches = new TenantBatches<TurnStartRequest<unknown>, TurnStartOutcome<unknown>>(
    (tenantId, requests) => this.withTenant(tenantId, (trx) => this.writeBatch(trx, tenantId, requests)), MAX_BATCH);
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
    return this.batches.submit(tenantId, request as TurnStartRequest<unknown>).catch((failed: unknown) => ({ failed })) as Promise<TurnStartOutcome<T>>;
  }

  private async writeBatch(trx: TenantTransaction, tenantId: string, requests: TurnStartRequest<unknown>[]): Promise<TurnStartOutcome<unknown>[]> {
    const selected = requests.map((r) => r.selected);
    const read = await turnStartStore.lockAndRead(trx, tenantId, {
      sessionIds: [...new Set(requests.map((r) => r.sessionId).filter((id) => isUuid(id)))],
      historyLimit: this.historyLimit,
      clientIds: [...new Set(selected.filter((c): c is number => typeof c === 'number'))],
      clientKeys: [...new Set(selected.filter((c): c is string => typeof c === 'string'))],
    });
    // resolveCaller's client lookup, answered from what was read.
    const find = async (_trx: TenantTransaction, client: SelectedClient) => client === undefined ? read.oldest
      : read.named.find((row) => (typeof client === 'number' ? row.id === client : row.client_key === client));

    const outcomes: (TurnStartOutcome<unknown> | undefined)[] = [];
    const accepted: { index: number; built: Extract<Built<unknown>, { values: unknown }> }[] = [];
    const running = new Set<string>();
    for (const [index, request] of requests.entries()) {
      let built: Built<unknown>;
      try {
        const caller: Caller = await resolveCaller(trx, tenantId, request.principal, request.selected, find);
        built = request.build(caller, read.sessions.get(request.sessionId));
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

    const written = await turnStartStore.countAndWrite(trx, tenantId, this.runnerId, this.maxRunning,
      accepted.map(({ index, built }) => ({ ...built.values, session_id: requests[index].sessionId })));
    for (const { index, built } of accepted) {
      const userMessageId = written.get(built.values.turn_id);
      // Not written: past the tenant's limit. Written but not started: another
      // process started a turn in the session meanwhile (the unique index on unfinished turns).
      if (userMessageId === undefined) outcomes[index] = { refused: 'limit' };
      else if (userMessageId === null) outcomes[index] = { busy: undefined };
      else {
        await requests[index].announce(trx, built.started, userMessageId);
        outcomes[index] = { started: built.started, userMessageId };
      }
    }
    return outcomes as TurnStartOutcome<unknown>[];
  }
}

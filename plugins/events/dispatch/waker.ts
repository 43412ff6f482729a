// Wakes a tenant's dispatcher once an emitting transaction has committed
// (stream/emit.ts registers the wake with afterCommit). Per process: while
// this process's worker drains the tenant, a wake is a flag that drain reads
// before it stops; otherwise the dispatcher job is enqueued, one enqueue at a
// time per tenant, and wakes that arrive meanwhile share the next one.
// graphile-worker's job key does the rest: a pending dispatcher is replaced
// (run now), a running one (here or in another process) gets a successor.
//
// A wake lost to a crash between the commit and the enqueue is found by the
// sweep (tasks/events.sweep.ts: at start and once a minute).
import type { Logger } from 'pino';

export interface Drain {
  /** Whether a wake arrived since the last call (and clears it). */
  takeWake(): boolean;
  /** Waits up to `ms` for a wake; true (and cleared) if one came. */
  nextWake(ms: number): Promise<boolean>;
  /** The drain stops: later wakes enqueue. */
  end(): void;
}

export interface Waker {
  wake(tenantId: string): void;
  /** Marks this process's worker as draining the tenant. */
  draining(tenantId: string): Drain;
  /** Resolves once no enqueue for the tenant is in flight (a short-lived process waits for its wakes before exiting). */
  idle(tenantId: string): Promise<void>;
}

interface DrainState {
  woken: boolean;
  /** Set while the drain waits for a wake. */
  onWake?: () => void;
}

export function createWaker(enqueue: (tenantId: string) => Promise<void>, logger: Pick<Logger, 'warn'>): Waker {
  const drains = new Map<string, DrainState>();
  const enqueuing = new Map<string, { again: boolean; done: Promise<void> }>();

  async function enqueueUntilQuiet(tenantId: string, state: { again: boolean }) {
    do {
      state.again = false;
      try {
        await enqueue(tenantId);
      } catch (err) {
        logger.warn({ err, tenantId }, 'events: could not wake the dispatcher; the sweep will');
      }
    } while (state.again && !drains.has(tenantId));
    enqueuing.delete(tenantId);
  }

  const waker: Waker = {
    wake(tenantId) {
      const drain = drains.get(tenantId);
      if (drain) {
        drain.woken = true;
        drain.onWake?.();
        return;
      }
      const pending = enqueuing.get(tenantId);
      if (pending) {
        pending.again = true;
        return;
      }
      const state = { again: false, done: Promise.resolve() };
      enqueuing.set(tenantId, state);
      state.done = enqueueUntilQuiet(tenantId, state);
    },

    draining(tenantId) {
      const state: DrainState = { woken: false };
      drains.set(tenantId, state);
      return {
        takeWake() {
          const woken = state.woken;
          state.woken = false;
          return woken;
        },
        nextWake(ms) {
          if (state.woken) return Promise.resolve(this.takeWake());
          return new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => {
              state.onWake = undefined;
              resolve(false);
            }, ms);
            state.onWake = () => {
              clearTimeout(timer);
              state.onWake = undefined;
              state.woken = false;
              resolve(true);
            };
          });
        },
        end() {
          if (drains.get(tenantId) === state) drains.delete(tenantId);
          // A wake the drain did not act on still needs a dispatcher.
          if (state.woken) waker.wake(tenantId);
        },
      };
    },

    async idle(tenantId) {
      for (let state = enqueuing.get(tenantId); state; state = enqueuing.get(tenantId)) await state.done;
    },
  };
  return waker;
}

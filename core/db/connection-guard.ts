// A second connection taken while this async context holds a transaction.
// On the embedded database (PGlite: one backend session shared by every
// connection) that second connection waits for the transaction to end, and the
// transaction waits for it: the request hangs and every other connection of
// the process times out behind it. On an external PostgreSQL the same code
// works but holds two pool connections at once, which can exhaust the pool
// under load. So work done inside a transaction uses the transaction; work
// that must not (a read-only pipe from a second session, a cancel sent from
// outside) says so with `onSecondConnection`.
//
// The guard is 'throw' on the embedded database (a clear error instead of a
// hang) and in the test suite (PLATFORM_CONNECTION_GUARD=throw, so every
// such call is found against the real PostgreSQL too); off otherwise.
// PLATFORM_CONNECTION_GUARD=trace also writes each refusal's stack to stderr
// (a test sees only the 500 of a refused request).
import { AsyncLocalStorage } from 'node:async_hooks';

export type ConnectionGuardMode = 'off' | 'throw' | 'trace';

const held = new AsyncLocalStorage<string | undefined>();
/** The mode PLATFORM_CONNECTION_GUARD sets ('off' when unset or unknown). */
export function configuredGuard(): ConnectionGuardMode {
  const value = process.env.PLATFORM_CONNECTION_GUARD;
  return value === 'throw' || value === 'trace' ? value : 'off';
}

let mode: ConnectionGuardMode = configuredGuard();

export function setConnectionGuard(next: ConnectionGuardMode): void {
  // The embedded database turns it on; a trace asked for stays a trace.
  mode = next === 'throw' && mode === 'trace' ? 'trace' : next;
}

export class SecondConnectionError extends Error {
  constructor(what: string, holder: string) {
    // The caller sits below the pool, kysely and withTenant frames: keep enough of the stack to name it.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 40;
    super(`${what} was requested while this work holds ${holder}: use the transaction (on the embedded database this would wait forever)`);
    Error.stackTraceLimit = limit;
    this.name = 'SecondConnectionError';
  }
}

/**
 * Runs `work` as the holder of a transaction (`holder` names it in errors).
 * With the guard off nothing is recorded (nothing would read it): no async
 * context is entered on every transaction.
 */
export function holdingTransaction<T>(holder: string, work: () => Promise<T>): Promise<T> {
  return mode === 'off' ? work() : held.run(holder, work);
}

/**
 * Runs `work` free to take other connections: only for a second connection
 * the transaction never waits on, and never on the embedded database.
 */
export function onSecondConnection<T>(work: () => Promise<T>): Promise<T> {
  return held.run(undefined, work);
}

/** Throws when a connection other than the held transaction's is requested (guard on). */
export function checkSecondConnection(what: string): void {
  if (mode === 'off') return;
  const holder = held.getStore();
  if (holder !== undefined) {
    const err = new SecondConnectionError(what, holder);
    if (mode === 'trace') process.stderr.write(`${err.stack!.split('\n').filter((line) => !line.includes('node_modules')).join('\n')}\n`);
    throw err;
  }
}

// In-process admission of tenant statements, for the embedded database
// (PGlite: one backend session for the whole process, so advisory locks
// cannot count anything there): a counter per key, and the backoff a job
// waits with for a place.

/** At most `limit` holders per key at once. */
export class CountingGate {
  private readonly held = new Map<string, number>();
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** A place for `key` (call the returned function once to free it), or undefined when all are taken. */
  tryTake(key: string): (() => void) | undefined {
    const count = this.held.get(key) ?? 0;
    if (count >= this.limit) return undefined;
    this.held.set(key, count + 1);
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }
}

const FIRST_PAUSE_MS = 25;
const LONGEST_PAUSE_MS = 1000;

/**
 * Waits before attempt `attempt + 1` (exponential backoff with jitter, never
 * past `deadline`, a Date.now() value): false, without waiting, once the
 * deadline has passed.
 */
export async function backoff(attempt: number, deadline: number): Promise<boolean> {
  const left = deadline - Date.now();
  if (left <= 0) return false;
  const pause = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** Math.min(attempt, 10)) * (0.5 + Math.random() / 2);
  await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
  return true;
}

// How many upload bodies this process reads at once. A stored file is one
// bytea value, so an upload is held whole in memory from its body's first
// byte until its row is inserted: the number read at once bounds the memory
// uploads take (about three times the largest file each). Past the limit an
// upload waits, first come first served, with its body unread (the socket's
// backpressure keeps it in the client).

/** Gives a slot back; calling it again does nothing. */
export type Release = () => void;

export class ReadSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(limit: number) {
    this.free = limit;
  }

  /** Resolves with a held slot; rejects with the signal's reason when it aborts first (the client went away). */
  acquire(signal: AbortSignal): Promise<Release> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', abort);
        resolve(this.releaser());
      };
      const abort = () => {
        const index = this.waiting.indexOf(grant);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal.reason);
      };
      this.waiting.push(grant);
      signal.addEventListener('abort', abort, { once: true });
    });
  }

  /** Uploads waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    };
  }
}

// The embedded database seen from the main thread: PGlite runs in a worker
// thread (embedded-worker.ts) so that no statement stalls this thread's event
// loop, and a watchdog ends a call that runs past its statement budget.
// PGlite never honours statement_timeout (it has no timer interrupts), so the
// budget is enforced here: the thread is terminated (what it had committed is
// on disk) and PGlite reopened from the data dir; the call fails with
// StatementBudgetExceeded. One call runs at a time (the session queue's rule).
import { Worker } from 'node:worker_threads';
import type { FromEngine, ToEngine } from './embedded-protocol.ts';

/** How far past its budget a call may run before the watchdog stops it. */
const GRACE_MS = 100;
const CLOSE_TIMEOUT_MS = 10_000;

export class StatementBudgetExceeded extends Error {
  override name = 'StatementBudgetExceeded';
}

/** The database thread died on its own (it is reopened). */
export class EngineCrashed extends Error {
  override name = 'EngineCrashed';
}

export interface EngineOptions {
  /** Told when the watchdog or a crash restarted PGlite, and when reopening it failed. */
  onRestart?: (event: { reason: 'statement_budget' | 'crash'; detail: string; error?: Error }) => void;
}

interface Call {
  id: number;
  onData: (data: Uint8Array) => void;
  resolve: () => void;
  reject: (err: Error) => void;
  timer?: NodeJS.Timeout;
}

export class EmbeddedEngine {
  /** The socket server awaits this before listening. */
  waitReady: Promise<void>;
  /** Whether PGlite's session is inside a transaction block after the last call. */
  inTransaction = false;
  private worker!: Worker;
  private call: Call | undefined;
  private nextId = 1;
  private closing = false;
  /** Threads being ended on purpose: their exit is no crash. */
  private readonly retired = new WeakSet<Worker>();
  private readonly dir: string;
  private readonly options: EngineOptions;

  private constructor(dir: string, options: EngineOptions) {
    this.dir = dir;
    this.options = options;
    this.waitReady = this.spawn();
  }

  static async open(dir: string, options: EngineOptions = {}): Promise<EmbeddedEngine> {
    const engine = new EmbeddedEngine(dir, options);
    await engine.waitReady;
    return engine;
  }

  /**
   * Runs protocol messages; their reply streams to onData. budgetMs > 0: the
   * watchdog stops the call past it (StatementBudgetExceeded).
   */
  async exec(message: Uint8Array, onData: (data: Uint8Array) => void, budgetMs = 0): Promise<void> {
    await this.ready();
    if (this.closing) throw new Error('the embedded database is closing');
    return new Promise<void>((resolve, reject) => {
      const call: Call = { id: this.nextId++, onData, resolve, reject };
      if (budgetMs > 0) {
        call.timer = setTimeout(() => {
          this.restart('statement_budget', new StatementBudgetExceeded(`a statement ran past its budget of ${budgetMs} ms`));
        }, budgetMs + GRACE_MS);
      }
      this.call = call;
      this.post({ kind: 'exec', id: call.id, message });
    });
  }

  /** PGlite open; after a failed reopen, tries once more. */
  private async ready(): Promise<void> {
    try {
      await this.waitReady;
    } catch {
      if (this.closing) return;
      this.retired.add(this.worker);
      await this.worker.terminate();
      this.waitReady = this.spawn();
      await this.waitReady;
    }
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.waitReady.catch(() => {});
    const worker = this.worker;
    const id = this.nextId++;
    const closed = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
      worker.on('message', (message: FromEngine) => {
        if (message.kind === 'closed' && message.id === id) {
          clearTimeout(timer);
          resolve();
        }
      });
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    worker.postMessage({ kind: 'close', id } satisfies ToEngine);
    await closed;
    await worker.terminate();
  }

  private post(message: ToEngine): void {
    this.worker.postMessage(message);
  }

  /** Starts the thread and resolves once PGlite is open. */
  private spawn(): Promise<void> {
    const worker = new Worker(new URL('./embedded-worker.ts', import.meta.url), { workerData: { dir: this.dir } });
    this.worker = worker;
    return new Promise<void>((resolve, reject) => {
      let opened = false;
      worker.on('message', (message: FromEngine) => {
        if (message.kind === 'ready') {
          opened = true;
          resolve();
        } else if (message.kind === 'failed') {
          reject(new Error(`the embedded database could not be opened: ${message.message}`));
        } else if (worker === this.worker) {
          this.receive(message);
        }
      });
      worker.on('error', () => {}); // its exit follows and is handled there
      worker.on('exit', (code) => {
        if (!opened) reject(new Error(`the embedded database thread exited (${code}) while opening`));
        else if (worker === this.worker && !this.retired.has(worker) && !this.closing) this.restart('crash', new EngineCrashed(`the embedded database thread exited (${code})`));
      });
    });
  }

  private receive(message: FromEngine): void {
    const call = this.call;
    if (!call || !('id' in message) || message.id !== call.id) return;
    if (message.kind === 'data') {
      call.onData(message.data);
      return;
    }
    if (message.kind !== 'done' && message.kind !== 'error') return;
    clearTimeout(call.timer);
    this.call = undefined;
    this.inTransaction = message.inTransaction;
    if (message.kind === 'done') call.resolve();
    else call.reject(new Error(message.message));
  }

  /** Ends the thread (mid-call if need be), fails the running call, and reopens PGlite once the old thread is gone. */
  private restart(reason: 'statement_budget' | 'crash', error: Error): void {
    const call = this.call;
    this.call = undefined;
    if (call) clearTimeout(call.timer);
    this.inTransaction = false;
    const old = this.worker;
    this.retired.add(old);
    // Never two PGlite instances on one data dir: the new one opens after the old thread has exited.
    this.waitReady = old.terminate().then(() => this.spawn());
    this.waitReady.then(
      () => this.options.onRestart?.({ reason, detail: error.message }),
      (err: Error) => this.options.onRestart?.({ reason, detail: error.message, error: err }),
    );
    call?.reject(error);
  }
}

// Stands in for async-hook-domain, which tap uses to hand an error that
// escapes a test (an uncaught exception, an unhandled rejection) to that
// test. The original follows every asynchronous resource with async hooks,
// including a destroy hook on every promise: in this suite, whose tests are
// mostly awaits on HTTP and database calls, that bookkeeping was about 7 % of
// the test processes' CPU. This one keeps no hooks: tap creates each test's
// domain inside the test's AsyncResource and runs the test through that
// resource's runInAsyncScope, so the domain wraps those runs in an
// AsyncLocalStorage (which follows promises and timers without hooks). An
// escaped error goes to the domain of the context it escaped from when Node
// reports one, else to the newest domain whose test has started and is still
// open; with none open, tap's default applies (the process fails), as with
// the original. TAP_ASYNC_HOOK_DOMAIN=1 loads the original instead.
// test/tap-child-processes.ts (preloaded into every test process) redirects
// tap's import here.
import { AsyncLocalStorage, executionAsyncResource } from 'node:async_hooks';

type OnError = (error: unknown, type: string) => void;
interface Scope { runInAsyncScope(fn: (...args: unknown[]) => unknown, thisArg?: unknown, ...args: unknown[]): unknown }

const current = new AsyncLocalStorage<Domain>();
/** Open domains, oldest first; `started` once their test has run in its scope. */
const open: Domain[] = [];
const originalEmit = process.emit;
let listening = false;

function strictRejections(): boolean {
  const at = process.execArgv.findIndex((arg) => arg.startsWith('--unhandled-rejections'));
  if (at < 0) return false;
  const arg = process.execArgv[at];
  return (arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : process.execArgv[at + 1]) === 'strict';
}
const strict = strictRejections();

/** Hands an escaped error to the newest open domain; false when something else handles it, or no domain is open. */
function handle(error: unknown, type: string, rejection = false): boolean {
  if (process.hasUncaughtExceptionCaptureCallback() || process.listeners('uncaughtException').length > 0) return false;
  const inContext = current.getStore();
  const domain = inContext && !inContext.destroyed ? inContext : open.findLast((d) => d.started) ?? open.at(-1);
  if (!domain) return false;
  try {
    domain.onerror(error, type);
  } catch (thrown) {
    domain.destroy();
    if (handle(thrown, 'uncaughtException')) return true;
    throw thrown;
  }
  if (!rejection) {
    // The exception is handled: keep the process alive this once.
    process.setUncaughtExceptionCaptureCallback(() => process.setUncaughtExceptionCaptureCallback(null));
    if (strict) process.once('unhandledRejection', () => {});
  }
  return true;
}

const onUncaught = (error: Error, origin: string) => { handle(error, origin); };

/** Sees unhandled rejections without marking them handled unless a domain took them; steps aside for a listener of the process's own. */
const emitSeeingRejections = function (this: NodeJS.Process, event: string | symbol, ...args: unknown[]): boolean {
  if (event !== 'unhandledRejection' || process.listeners('unhandledRejection').length > 0) {
    return (originalEmit as (...a: unknown[]) => boolean).call(process, event, ...args);
  }
  return handle(args[0], 'unhandledRejection', true);
} as typeof process.emit;

function listen(on: boolean): void {
  if (on === listening) return;
  listening = on;
  if (on) {
    process.on('uncaughtExceptionMonitor', onUncaught);
    if (!strict) process.emit = emitSeeingRejections;
  } else {
    process.removeListener('uncaughtExceptionMonitor', onUncaught);
    process.emit = originalEmit;
  }
}

export class Domain {
  readonly onerror: OnError;
  destroyed = false;
  started = false;

  constructor(onerror: OnError) {
    if (typeof onerror !== 'function') throw new TypeError('onerror must be a function');
    this.onerror = onerror;
    open.push(this);
    listen(true);
    // The test's AsyncResource, when tap creates the domain inside it: its later runs carry this domain.
    const scope = executionAsyncResource() as Partial<Scope>;
    if (typeof scope?.runInAsyncScope === 'function') {
      const run = scope.runInAsyncScope.bind(scope);
      scope.runInAsyncScope = (fn, thisArg, ...args) => run(() => {
        this.started = true;
        return current.run(this, () => fn.apply(thisArg, args));
      });
    }
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    open.splice(open.indexOf(this), 1);
    if (open.length === 0) listen(false);
  }
}

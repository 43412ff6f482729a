// Preloaded into every test process (.taprc node-arg), after tap's own
// preloads. tap runs each test file under its process tracker
// (@tapjs/processinfo, for coverage, which is off here, and `tap --changed`),
// and passes that tracker on to every process the test starts, through
// NODE_OPTIONS and a hook on child_process spawning. In the platform's child
// processes (CLI commands, servers) it costs about half as much again as the
// command itself. They start without it: the hook is emptied and the option
// removed.
import { registerHooks } from 'node:module';

const spawnHooks = (globalThis as Record<symbol, { listeners: unknown[]; unwrap?: () => void } | undefined>)[Symbol.for('process-on-spawn@*:singletonId')];
if (spawnHooks) {
  spawnHooks.listeners.length = 0;
  // With no listener left, the wrapper around every spawn only copies its environment.
  spawnHooks.unwrap?.();
}
const options = process.env.NODE_OPTIONS;
if (options?.includes('@tapjs/processinfo')) {
  const kept = (options.match(/"[^"]*"|\S+/g) ?? []).filter((option) => !option.includes('@tapjs/processinfo'));
  if (kept.length > 0) process.env.NODE_OPTIONS = kept.join(' ');
  else delete process.env.NODE_OPTIONS;
}

// tap's async-hook-domain, unless TAP_ASYNC_HOOK_DOMAIN=1: a hookless stand-in (see the file).
if (process.env.TAP_ASYNC_HOOK_DOMAIN !== '1') {
  const standIn = new URL('./tap-domain.ts', import.meta.url).href;
  registerHooks({
    resolve(specifier, context, next) {
      return specifier === 'async-hook-domain' ? { url: standIn, shortCircuit: true } : next(specifier, context);
    },
  });
}

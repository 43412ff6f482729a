// Runs several test files in one process, each in a subtest named by its
// path: the modules, the test harness's template database and the first
// platform boot are paid once for the batch instead of once per file.
// `import t from 'tap'` in a batched file resolves to tap-current.ts.
import { registerHooks } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { measureCpu } from './cpu-log.ts';
import { setCurrentTest } from './tap-current.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PER_FILE_TIMEOUT_MS = 300_000;
const SELF = import.meta.url;
const CURRENT_URL = new URL('./tap-current.ts', import.meta.url).href;

registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'tap' && context.parentURL !== SELF) return { url: CURRENT_URL, shortCircuit: true };
    return next(specifier, context);
  },
});

/** A process still alive this long after its last file ended is held by something a test left open. */
const EXIT_GRACE_MS = 10_000;

export function runBatch(files: string[]): void {
  // Each file has its own timeout; the batch as a whole has none.
  t.setTimeout(0);
  t.teardown(() => {
    setTimeout(() => {
      console.error(`# the batch's files ended, but these keep its process alive: ${process.getActiveResourcesInfo().join(', ')}`);
      process.exit();
    }, EXIT_GRACE_MS).unref();
  });
  for (const file of files) {
    t.test(file, { timeout: PER_FILE_TIMEOUT_MS }, async (fileTest) => {
      setCurrentTest(fileTest);
      fileTest.teardown(measureCpu(file));
      await import(pathToFileURL(path.join(ROOT, file)).href);
    });
  }
}

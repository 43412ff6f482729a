// What `import t from 'tap'` gives a test file run inside a batch (run.ts):
// the subtest the batch opened for that file, so the file's top-level
// `t.test(...)` and `t.teardown(...)` land in its own subtest, as they land
// on the root test when the file runs in its own process.
import type { Test } from 'tap';

const CURRENT = Symbol.for('agent-platform.test-batch.current');

export function setCurrentTest(test: Test): void {
  (globalThis as Record<symbol, unknown>)[CURRENT] = test;
}

function current(): Test {
  const test = (globalThis as Record<symbol, unknown>)[CURRENT] as Test | undefined;
  if (!test) throw new Error('a test file imported tap outside a batch subtest');
  return test;
}

const t = new Proxy({} as Test, {
  get(_target, property) {
    const test = current();
    const value = Reflect.get(test, property, test);
    return typeof value === 'function' ? value.bind(test) : value;
  },
  set(_target, property, value) {
    return Reflect.set(current(), property, value);
  },
  has(_target, property) {
    return Reflect.has(current(), property);
  },
});

export default t;

// The suite's stand-in for tap's async-hook-domain (test/tap-domain.ts): an
// error that escapes a test fails that test, not another one, and not the run
// silently. Runs the fixture under tap, as the suite runs its files.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import t from 'tap';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const TAP = path.join(ROOT, 'node_modules', '.bin', 'tap');

/** The fixture's top-level results under tap, as `name: ok|not ok`, and the whole output. */
function run(env: Record<string, string>) {
  // A fresh tap run: none of this test process's own tap settings.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^_?TAP/i.test(name)));
  const { stdout } = spawnSync(TAP, ['--reporter=tap', 'test/fixtures/tap-domain/escapes.ts'], { cwd: ROOT, env: { ...inherited, ...env }, encoding: 'utf8' });
  const results = Object.fromEntries([...stdout.matchAll(/^ {4}(not ok|ok) \d+ - (.+?)(?: # time=.*)?$/gm)].map((m) => [m[2], m[1]]));
  return { results, stdout };
}

const expected = { 'passes before': 'ok', 'throws from a timer': 'not ok', 'leaves a rejection unhandled': 'not ok', 'passes after': 'ok' };

t.test('each escaped error fails the test it escaped from, with the stand-in', async (t) => {
  const { results, stdout } = run({});
  t.match(stdout, /# domain: stand-in/, 'the stand-in is the one tap loaded');
  t.same(results, expected);
  t.match(stdout, /not ok 1 - thrown from a timer/);
  t.match(stdout, /not ok 1 - rejected, unhandled/);
});

t.test('as with the original', async (t) => {
  const { results, stdout } = run({ TAP_ASYNC_HOOK_DOMAIN: '1' });
  t.match(stdout, /# domain: original/);
  t.same(results, expected);
});

// Runs the filter, type-pattern and template cases under Deno (`deno test`),
// proving these engine helpers use web-standard APIs only. Run by scripts/test.sh.
import { cases } from './matching-cases.ts';

const deno = (globalThis as unknown as { Deno: { test(name: string, fn: () => void): void } }).Deno;
for (const { name, fn } of cases) deno.test(name, fn);

// Runs the engine's cases under Deno (`deno test`), proving the engine uses
// web-standard APIs only. Run by scripts/test.sh.
import { cases } from './engine-cases.ts';

const deno = (globalThis as unknown as { Deno: { test(name: string, fn: () => void): void } }).Deno;
for (const { name, fn } of cases) deno.test(name, fn);

// Runs the filter, type-pattern and template cases under node-tap (they also
// run under Deno: matching.deno.ts).
import t from 'tap';
import { cases } from './matching-cases.ts';

for (const { name, fn } of cases) {
  t.test(name, async () => fn());
}

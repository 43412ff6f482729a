// Citation verification benchmark: throughput and latency (p50/p99) of
// matchQuote for a 200-character quote in a 2,000-character chunk, in the four
// outcomes (exact, normalized, fuzzy, not found), beside a plain
// String.prototype.indexOf of the same strings in the same run (the baseline:
// what an exact-only check would cost). Pure CPU, no database:
// `npm run bench:citations` (or `node bench/citations.ts`).
// Goal: fuzzy p99 ≤ 1 ms.
import { matchQuote } from '../plugins/citations/match/matcher.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2_000);
const CHUNK_LENGTH = 2_000;
const QUOTE_LENGTH = 200;

// Deterministic English-like text (a fixed seed), so every run measures the same strings.
let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const WORDS = ('the of and to in is was for on that with as by at from this are be or an it which were not has have had '
  + 'pump valve pressure operator safety inspection report system control room log weekly monthly flow rate tank level '
  + 'maintenance procedure shutdown startup temperature sensor alarm manual review document revision section').split(' ');
function words(length: number): string {
  let text = '';
  while (text.length < length) text += `${WORDS[Math.floor(random() * WORDS.length)]}${random() < 0.08 ? '.\n' : ' '}`;
  return text.slice(0, length);
}

const chunk = words(CHUNK_LENGTH);
const at = 1_100;
const exact = chunk.slice(at, at + QUOTE_LENGTH);
// The same passage as a model re-flows it: line breaks and double spaces become single spaces, and vice versa.
const normalized = exact.replace(/\s+/g, ' ').replace(/ (\w+) /, '  $1\n');
// Three changed words (~94% similar).
const fuzzy = exact.replace(/pump|valve|pressure|the|of/g, (w, offset: number) => (offset < 150 && offset % 3 === 0 ? `${w}s` : w))
  .replace(/ [a-z]+ /, ' gearbox ').replace(/ [a-z]+\n?$/, ' turbine');
const notFound = words(QUOTE_LENGTH + 40).slice(40);

interface Figures { name: string; opsPerSecond: number; p50: number; p99: number; result: string }

function measure(name: string, run: () => unknown): Figures {
  let result: unknown;
  for (let i = 0; i < WARMUP; i += 1) result = run();
  const samples = new Float64Array(ITERATIONS);
  const started = performance.now();
  for (let i = 0; i < ITERATIONS; i += 1) {
    const t0 = performance.now();
    result = run();
    samples[i] = performance.now() - t0;
  }
  const total = performance.now() - started;
  samples.sort();
  return {
    name, opsPerSecond: ITERATIONS / (total / 1000), p50: samples[Math.floor(ITERATIONS * 0.5)], p99: samples[Math.floor(ITERATIONS * 0.99)],
    result: typeof result === 'object' && result !== null ? `${(result as { match_type: string }).match_type} ${(result as { score: number }).score.toFixed(3)}` : String(result),
  };
}

const cases = [['exact', exact], ['normalized', normalized], ['fuzzy', fuzzy], ['not_found', notFound]] as const;
const rows: { matcher: Figures; baseline: Figures }[] = [];
for (const [name, quote] of cases) {
  const matcher = measure(name, () => matchQuote(chunk, quote));
  const baseline = measure(`indexOf (${name})`, () => chunk.indexOf(quote));
  if (!matcher.result.startsWith(name)) throw new Error(`the ${name} case matched as ${matcher.result}: fix the bench strings`);
  rows.push({ matcher, baseline });
}

const ms = (value: number) => `${(value * 1000).toFixed(1)} µs`;
console.log(`citations bench: ${QUOTE_LENGTH}-char quote in a ${CHUNK_LENGTH}-char chunk, ${ITERATIONS} iterations each (node ${process.version})`);
console.log('case         result              ops/s      p50        p99      | indexOf ops/s   p99      | ratio (time vs indexOf)');
for (const { matcher, baseline } of rows) {
  console.log(`${matcher.name.padEnd(12)} ${matcher.result.padEnd(18)} ${Math.round(matcher.opsPerSecond).toString().padStart(9)} ${ms(matcher.p50).padStart(10)} ${ms(matcher.p99).padStart(10)} | `
    + `${Math.round(baseline.opsPerSecond).toString().padStart(12)} ${ms(baseline.p99).padStart(10)} | ${(baseline.opsPerSecond / matcher.opsPerSecond).toFixed(1)}×`);
}
const fuzzyP99 = rows[2].matcher.p99;
console.log(`goal fuzzy p99 ≤ 1 ms: ${ms(fuzzyP99)} → ${fuzzyP99 <= 1 ? 'met' : 'NOT met'}`);

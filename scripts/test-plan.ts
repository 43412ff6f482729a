// Plans `npm test`'s database tier: which test files share a process, in
// what order. Writes the files for tap to run to node_modules/.cache/test-plan/
// and prints their paths, one per line:
// - a file whose header has a line starting "// Runs in its own process:"
//   gets a process of its own (a wrapper that imports it), as under
//   `npx tap <file>`;
// - the others are packed into batches of about TEST_BATCH_SECONDS (default
//   120, in the recorded figures, which are taken with three processes at a
//   time) each, one process running its files one after the other
//   (test/batch/run.ts): modules, template database and first boot paid once.
// tap starts files in name order, so the names number the units longest
// first, which keeps the last one from running alone at the end.
// A file's expected seconds come from test/batch/durations.json (a previous
// run's figures); a file not listed is estimated from its size.
// `node scripts/test-plan.ts --record <tap output>` rewrites durations.json
// from the output of a run of this plan.
import { globSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'node_modules', '.cache', 'test-plan');
const DURATIONS = path.join(ROOT, 'test', 'batch', 'durations.json');
const OWN_PROCESS = /^\/\/ Runs in its own process:/m;
const batchSeconds = Math.max(10, Number(process.env.TEST_BATCH_SECONDS ?? 120));

function testFiles(): string[] {
  return globSync(['test/**/*.test.ts', 'plugins/*/test/**/*.test.ts'], { cwd: ROOT })
    .filter((file) => !file.endsWith('.unit.test.ts') && !/(^|\/)(node_modules|dist)\//.test(file))
    .sort();
}

/** Each test file's seconds in a tap output of this plan: batched files are subtests, the others their wrappers. */
function record(tapOutput: string): void {
  const durations: Record<string, number> = {};
  for (const match of tapOutput.matchAll(/^ {4}(?:not )?ok \d+ - ((?:test|plugins)\/\S+\.test\.ts) # time=([\d.]+)ms/gm)) {
    durations[match[1]] = Math.round(Number(match[2]) / 100) / 10;
  }
  for (const match of tapOutput.matchAll(/^(?:not )?ok \d+ - \S*test-plan\/\d+\.(\S+)\.test\.mjs # time=([\d.]+)ms/gm)) {
    if (!match[1].startsWith('batch-')) durations[`${match[1].replaceAll('~', '/')}.test.ts`] = Math.round(Number(match[2]) / 100) / 10;
  }
  const known = new Set(testFiles());
  const kept = Object.fromEntries(Object.entries(durations).filter(([file]) => known.has(file)).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(DURATIONS, `${JSON.stringify(kept, null, 0).replaceAll(',"', ',\n"')}\n`);
  console.log(`${Object.keys(kept).length} files recorded in ${path.relative(ROOT, DURATIONS)}`);
}

/** A file with a process of its own, its CPU recorded when the process exits (test/batch/cpu-log.ts). */
function ownProcessSource(file: string): string {
  const cpuLog = JSON.stringify(path.join(ROOT, 'test', 'batch', 'cpu-log.ts'));
  return `import { measureCpu } from ${cpuLog};\nprocess.once('exit', measureCpu(${JSON.stringify(file)}));\nawait import(${JSON.stringify(path.join(ROOT, file))});\n`;
}

function plan(): void {
  const durations = JSON.parse(readFileSync(DURATIONS, 'utf8')) as Record<string, number>;
  const secondsOf = (file: string) => durations[file] ?? 3 + statSync(path.join(ROOT, file)).size / 2000;
  interface Unit { name: string; seconds: number; source: string }
  const units: Unit[] = [];
  const shared: string[] = [];
  for (const file of testFiles()) {
    if (OWN_PROCESS.test(readFileSync(path.join(ROOT, file), 'utf8').slice(0, 4000))) {
      units.push({ name: file.replaceAll('/', '~').replace(/\.test\.ts$/, ''), seconds: secondsOf(file), source: ownProcessSource(file) });
    } else {
      shared.push(file);
    }
  }
  // Longest first into the shortest batch.
  const total = shared.reduce((sum, file) => sum + secondsOf(file), 0);
  const batches = Array.from({ length: Math.max(1, Math.min(shared.length, Math.ceil(total / batchSeconds))) }, () => ({ files: [] as string[], seconds: 0 }));
  for (const file of shared.sort((a, b) => secondsOf(b) - secondsOf(a))) {
    const shortest = batches.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    shortest.files.push(file);
    shortest.seconds += secondsOf(file);
  }
  const runner = JSON.stringify(path.join(ROOT, 'test', 'batch', 'run.ts'));
  batches.forEach((batch, index) => units.push({
    name: `batch-${String(index + 1).padStart(2, '0')}`,
    seconds: batch.seconds,
    source: `import { runBatch } from ${runner};\nrunBatch(${JSON.stringify(batch.files.sort(), null, 2)});\n`,
  }));
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  units.sort((a, b) => b.seconds - a.seconds).forEach((unit, index) => {
    const file = path.join(OUT, `${String(index).padStart(3, '0')}.${unit.name}.test.mjs`);
    writeFileSync(file, unit.source);
    console.log(path.relative(ROOT, file));
  });
}

const recordAt = process.argv.indexOf('--record');
if (recordAt >= 0) record(readFileSync(process.argv[recordAt + 1], 'utf8'));
else plan();

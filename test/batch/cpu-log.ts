// With TEST_CPU_LOG=<file>, each test file's CPU seconds (its process's user
// + system time, and that of the child processes it waited for: CLI commands,
// servers, Chromium) are appended to <file>, one "<seconds> <file>" line
// each: where the suite's CPU goes, which the wall times of files sharing
// two cores do not tell.
import { appendFileSync, readFileSync } from 'node:fs';

const LOG = process.env.TEST_CPU_LOG;
const TICKS_PER_SECOND = 100;

/** user + system + waited-for children's user + system, in seconds (Linux /proc). */
function cpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14–17 of proc(5) (utime, stime, cutime, cstime), counted after the command name.
  return fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0) / TICKS_PER_SECOND;
}

/** Starts measuring one file; the function returned records it. */
export function measureCpu(file: string): () => void {
  if (!LOG) return () => {};
  const start = cpuSeconds();
  return () => appendFileSync(LOG, `${(cpuSeconds() - start).toFixed(2)} ${file}\n`);
}

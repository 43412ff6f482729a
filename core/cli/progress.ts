// Shows a long command's progress (CliProgress) on stderr, so that stdout
// holds only the result. On a terminal the line is rewritten in place; into a
// pipe or a file each state is a line of its own, a repeated state written
// once (a command that polls reports the same state many times).
import type { CliProgress } from './commands.ts';

export interface ProgressReporter {
  progress: CliProgress;
  /** Ends the display: a terminal's progress line is closed so the next output starts on a line of its own. */
  finish(): void;
}

export function stderrProgress(stream: NodeJS.WriteStream = process.stderr): ProgressReporter {
  const terminal = stream.isTTY === true;
  let last: string | undefined;
  return {
    progress(status) {
      const line = status.replace(/\s*\n\s*/g, ' ');
      if (line === last) return;
      last = line;
      stream.write(terminal ? `\r\x1b[K${line}` : `${line}\n`);
    },
    finish() {
      if (terminal && last !== undefined) stream.write('\n');
      last = undefined;
    },
  };
}

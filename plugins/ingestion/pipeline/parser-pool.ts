// A pool of parser child processes (INGESTION_MAX_ACTIVITIES of them at most,
// started on demand, each reused for the next document). A task past its
// timeout has its process killed and fails with StageTimeout; a ParseError
// thrown in the process stays a ParseError here (fatal for the run). Each
// process runs node with --max-old-space-size=INGESTION_PARSER_MAX_MEMORY_MB:
// a document whose parse needs more aborts that process only (V8's heap-limit
// abort ends the whole process it happens in, which is why the parsers do not
// run in worker threads of the server), fails as a ParseError with the code
// PARSE_OUT_OF_MEMORY (the same bytes would fail the same way), and the next
// task gets a fresh process.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ParseError } from '../parsers/types.ts';
import { StageTimeout } from './timeout.ts';
import type { ParseResult } from './parse-step.ts';
import type { ParseTask } from './parse-child.ts';

const ENTRY = fileURLToPath(new URL('./parse-child.ts', import.meta.url));
/** The end of a child's stderr kept to tell why it died (V8 writes "Reached heap limit" there). */
const STDERR_TAIL = 4096;
const OUT_OF_MEMORY = /heap limit|heap out of memory/i;

export const PARSE_OUT_OF_MEMORY = 'PARSE_OUT_OF_MEMORY';

export interface ParserPoolOptions {
  /** The heap limit of each process (V8's old generation), in MiB. */
  maxMemoryMb: number;
}

interface Child {
  process: ChildProcess;
  ready: boolean;
  stderr: string;
}

type ChildMessage = { phase?: 'ready' | 'parsed'; ok?: boolean; result?: ParseResult; error?: { name: string; message: string } };

/** What a process that ended mid-task tells about why. */
function deathOf(child: Child, code: number | null, signal: NodeJS.Signals | null, maxMemoryMb: number): Error {
  if (OUT_OF_MEMORY.test(child.stderr)) {
    const error = new ParseError(`${PARSE_OUT_OF_MEMORY}: the parser ran out of memory (over its ${maxMemoryMb} MiB heap, INGESTION_PARSER_MAX_MEMORY_MB)`);
    Object.assign(error, { code: PARSE_OUT_OF_MEMORY });
    return error;
  }
  const last = child.stderr.trim().split('\n').at(-1)?.slice(0, 300);
  return new Error(`parser process exited (${signal ? `signal ${signal}` : `code ${code}`})${last ? `: ${last}` : ''}`);
}

export class ParserPool {
  private readonly idle: Child[] = [];
  private readonly all = new Set<Child>();
  private closed = false;
  private readonly options: ParserPoolOptions;

  constructor(options: ParserPoolOptions = { maxMemoryMb: 1024 }) {
    this.options = options;
  }

  /** Parses and chunks in a child process: parsing under `timeouts.parse` seconds, then chunking under `timeouts.chunk`. */
  async run(task: ParseTask, timeouts: { parse: number; chunk: number }): Promise<ParseResult> {
    if (this.closed) throw new Error('the parser pool is closed');
    const child = this.idle.pop() ?? this.spawn();
    const proc = child.process;
    return new Promise<ParseResult>((resolve, reject) => {
      let settled = false;
      const finish = (reuse: boolean) => {
        settled = true;
        clearTimeout(timer);
        proc.off('message', onMessage);
        proc.off('close', onClose);
        proc.off('error', onError);
        if (reuse && !this.closed) this.idle.push(child);
        else this.kill(child);
      };
      const fail = (error: Error) => {
        if (settled) return;
        finish(false);
        reject(error);
      };
      const send = () => {
        clearTimeout(timer);
        timer = expireAfter(timeouts.parse, 'parse');
        proc.send(task, (err) => {
          if (err) fail(new Error(`parser process unreachable: ${err.message}`));
        });
      };
      const onMessage = (message: ChildMessage) => {
        if (settled) return;
        if (message.phase === 'ready') {
          child.ready = true;
          send();
          return;
        }
        if (message.phase === 'parsed') {
          clearTimeout(timer);
          timer = expireAfter(timeouts.chunk, 'chunking');
          return;
        }
        finish(true);
        if (message.ok) resolve(message.result!);
        else reject(message.error!.name === 'ParseError' ? new ParseError(message.error!.message) : new Error(message.error!.message));
      };
      // 'close' comes after the process ended and its stderr was read to the end.
      const onClose = (code: number | null, signal: NodeJS.Signals | null) => fail(deathOf(child, code, signal, this.options.maxMemoryMb));
      const onError = (err: Error) => fail(new Error(`parser process failed: ${err.message}`));
      const expireAfter = (seconds: number, what: string) => setTimeout(() => fail(new StageTimeout(`${what} timed out after ${seconds} s`)), seconds * 1000);
      // A fresh process gets as long to start as a parse; the parse's own time starts when the task is sent.
      let timer = expireAfter(timeouts.parse, 'parser start-up');
      proc.on('message', onMessage);
      proc.on('close', onClose);
      proc.on('error', onError);
      if (child.ready) send();
    });
  }

  private spawn(): Child {
    const proc = fork(ENTRY, [], {
      execArgv: [`--max-old-space-size=${this.options.maxMemoryMb}`],
      serialization: 'advanced', // structured clone: Uint8Arrays (bytes, page images) cross as they are
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const child: Child = { process: proc, ready: false, stderr: '' };
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (text: string) => { child.stderr = (child.stderr + text).slice(-STDERR_TAIL); });
    // An idle parser process never keeps the server's event loop alive.
    proc.unref();
    proc.channel?.unref();
    (proc.stderr as unknown as { unref?: () => void }).unref?.();
    this.all.add(child);
    proc.once('close', () => {
      this.all.delete(child);
      const at = this.idle.indexOf(child);
      if (at >= 0) this.idle.splice(at, 1);
    });
    proc.on('error', () => {}); // a failed spawn or kill is reported to the task through its own listener
    return child;
  }

  private kill(child: Child): void {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.idle.length = 0;
    await Promise.all([...this.all].map((child) => new Promise<void>((resolve) => {
      if (child.process.exitCode !== null || child.process.signalCode !== null) return resolve();
      child.process.once('exit', () => resolve());
      child.process.ref(); // the exit is awaited even where nothing else keeps the event loop alive
      this.kill(child);
    })));
  }
}

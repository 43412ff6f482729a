// A pool of parser worker threads (INGESTION_MAX_ACTIVITIES of them at most,
// started on demand). A task past its timeout has its thread terminated and
// fails with StageTimeout; a ParseError thrown in the thread stays a
// ParseError here (fatal for the run). Each thread runs under resourceLimits
// (INGESTION_PARSER_MAX_MEMORY_MB of heap): a document whose parse needs more (a
// decompression bomb DOCX/PPTX) ends that thread, fails as a ParseError (the
// same bytes would fail the same way), and the next task gets a fresh thread.
import { Worker } from 'node:worker_threads';
import { ParseError } from '../parsers/types.ts';
import { StageTimeout } from './timeout.ts';
import type { ParseResult } from './parse-step.ts';
import type { ParseTask } from './parse-worker.ts';

const ENTRY = new URL('./parse-worker.ts', import.meta.url);

export interface ParserPoolOptions {
  /** The heap limit of each thread (V8's old generation), in MiB. */
  maxMemoryMb: number;
}

/** What a thread that died tells about why. */
function deathOf(err: Error & { code?: string }, maxMemoryMb: number): Error {
  if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new ParseError(`the parser ran out of memory (over its ${maxMemoryMb} MiB limit, INGESTION_PARSER_MAX_MEMORY_MB)`);
  }
  return new Error(`parser thread failed: ${err.message}`);
}

export class ParserPool {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private closed = false;
  private readonly options: ParserPoolOptions;

  constructor(options: ParserPoolOptions = { maxMemoryMb: 1024 }) {
    this.options = options;
  }

  /** Parses and chunks in a thread: parsing under `timeouts.parse` seconds, then chunking under `timeouts.chunk`. */
  async run(task: ParseTask, timeouts: { parse: number; chunk: number }): Promise<ParseResult> {
    if (this.closed) throw new Error('the parser pool is closed');
    const worker = this.idle.pop() ?? this.spawn();
    return new Promise<ParseResult>((resolve, reject) => {
      let settled = false;
      const finish = (reuse: boolean) => {
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (reuse && !this.closed) this.idle.push(worker);
        else this.kill(worker);
      };
      const onMessage = (message: { phase?: 'parsed'; ok?: boolean; result?: ParseResult; error?: { name: string; message: string } }) => {
        if (settled) return;
        if (message.phase === 'parsed') {
          clearTimeout(timer);
          timer = expireAfter(timeouts.chunk, 'chunking');
          return;
        }
        finish(true);
        if (message.ok) resolve(message.result!);
        else reject(message.error!.name === 'ParseError' ? new ParseError(message.error!.message) : new Error(message.error!.message));
      };
      const onError = (err: Error) => {
        if (settled) return;
        finish(false);
        reject(deathOf(err, this.options.maxMemoryMb));
      };
      // A thread that ends without an error event (it should not) fails the task instead of leaving it waiting.
      const onExit = (code: number) => {
        if (settled) return;
        finish(false);
        reject(new Error(`parser thread exited (code ${code})`));
      };
      const expireAfter = (seconds: number, what: string) => setTimeout(() => {
        if (settled) return;
        finish(false);
        reject(new StageTimeout(`${what} timed out after ${seconds} s`));
      }, seconds * 1000);
      let timer = expireAfter(timeouts.parse, 'parse');
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(task, [task.bytes.buffer as ArrayBuffer]);
    });
  }

  private spawn(): Worker {
    const worker = new Worker(ENTRY, { resourceLimits: { maxOldGenerationSizeMb: this.options.maxMemoryMb } });
    worker.unref();
    this.all.add(worker);
    worker.once('exit', () => {
      this.all.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
    });
    return worker;
  }

  private kill(worker: Worker): void {
    void worker.terminate();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.idle.length = 0;
    await Promise.all([...this.all].map((worker) => worker.terminate()));
  }
}

// A pool of parser worker threads (INGESTION_MAX_ACTIVITIES of them at most,
// started on demand). A task past its timeout has its thread terminated and
// fails with StageTimeout; a ParseError thrown in the thread stays a
// ParseError here (fatal for the run).
import { Worker } from 'node:worker_threads';
import { ParseError } from '../parsers/types.ts';
import { StageTimeout } from './timeout.ts';
import type { ParseResult } from './parse-step.ts';
import type { ParseTask } from './parse-worker.ts';

const ENTRY = new URL('./parse-worker.ts', import.meta.url);

export class ParserPool {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private closed = false;

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
        reject(new Error(`parser thread failed: ${err.message}`));
      };
      const expireAfter = (seconds: number, what: string) => setTimeout(() => {
        if (settled) return;
        finish(false);
        reject(new StageTimeout(`${what} timed out after ${seconds} s`));
      }, seconds * 1000);
      let timer = expireAfter(timeouts.parse, 'parse');
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage(task, [task.bytes.buffer as ArrayBuffer]);
    });
  }

  private spawn(): Worker {
    const worker = new Worker(ENTRY);
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

// YAML bodies are read in worker threads (yaml-worker.ts), never on the
// server's event loop: a slow parse holds neither other requests nor
// /health. Each read has a deadline and each thread a heap limit; past
// either the thread is ended (a fresh one serves the next read) and the
// request is refused with 400 APPLY_TOO_LARGE. At most YAML_READERS reads run
// at once; the others wait their turn, and their deadline starts with it.
import { Worker } from 'node:worker_threads';
import { badRequest } from 'agent-platform/sdk';
import type { YamlAnswer, YamlJob } from './yaml-worker.ts';

/** Longest a YAML body may take to read (parse, alias sizing, conversion). */
export const YAML_READ_TIMEOUT_MS = 10_000;
/** Heap of a reader thread: a body whose parse needs more is refused. */
export const YAML_READ_HEAP_MB = 512;
/** Reader threads at most (started on demand). */
export const YAML_READERS = 2;

export interface YamlReaderLimits {
  timeoutMs: number;
  heapMb: number;
  readers: number;
}

interface Slot {
  worker?: Worker;
}

const tooLarge = (why: string) => badRequest(`The YAML body ${why}: send fewer or smaller documents (or JSON)`, 'APPLY_TOO_LARGE');

export function createYamlReader(limits: YamlReaderLimits = { timeoutMs: YAML_READ_TIMEOUT_MS, heapMb: YAML_READ_HEAP_MB, readers: YAML_READERS }) {
  const free: Slot[] = Array.from({ length: limits.readers }, () => ({}));
  const waiting: ((slot: Slot) => void)[] = [];
  let nextId = 0;
  let closed = false;
  const all = [...free];

  function acquire(): Promise<Slot> {
    const slot = free.pop();
    return slot ? Promise.resolve(slot) : new Promise((resolve) => waiting.push(resolve));
  }

  function release(slot: Slot): void {
    const next = waiting.shift();
    if (next) next(slot);
    else free.push(slot);
  }

  function workerOf(slot: Slot): Worker {
    if (!slot.worker) {
      const worker = new Worker(new URL('./yaml-worker.ts', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: limits.heapMb } });
      worker.unref();
      // A read's own listeners answer its failures; these keep an idle thread's end from reaching the process.
      worker.on('error', () => {});
      worker.once('exit', () => {
        if (slot.worker === worker) slot.worker = undefined;
      });
      slot.worker = worker;
    }
    return slot.worker;
  }

  function run(slot: Slot, job: YamlJob): Promise<unknown[]> {
    const worker = workerOf(slot);
    return new Promise<unknown[]>((resolve, reject) => {
      const settle = (end: () => void, retire: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (retire) {
          if (slot.worker === worker) slot.worker = undefined;
          void worker.terminate();
        }
        end();
      };
      const onMessage = (answer: YamlAnswer) => {
        if (answer.id !== job.id) return;
        if ('values' in answer) settle(() => resolve(answer.values), false);
        else if ('refusal' in answer) settle(() => reject(badRequest(answer.refusal.message, answer.refusal.code)), false);
        else settle(() => reject(badRequest('The YAML body could not be read (nested or built too deeply for the reader)', 'APPLY_YAML_INVALID')), false);
      };
      const onError = (error: Error & { code?: string }) => {
        if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') settle(() => reject(tooLarge(`needs more than ${limits.heapMb} MB to read`)), true);
        else settle(() => reject(error), true);
      };
      const onExit = () => settle(() => reject(new Error('The YAML reader thread exited')), true);
      const timer = setTimeout(() => settle(() => reject(tooLarge(`takes longer than ${limits.timeoutMs / 1000} s to read`)), true), limits.timeoutMs);
      worker.on('message', onMessage).once('error', onError).once('exit', onExit);
      worker.postMessage(job);
    });
  }

  return {
    /** The documents of a YAML body as JSON values (yaml-json.ts), read off the event loop. */
    async read(text: string, maxDocuments: number): Promise<unknown[]> {
      if (closed) throw new Error('The YAML reader is closed');
      const slot = await acquire();
      try {
        if (closed) throw new Error('The YAML reader is closed');
        return await run(slot, { id: ++nextId, text, maxDocuments });
      } finally {
        release(slot);
      }
    },

    async close(): Promise<void> {
      closed = true;
      await Promise.all(all.map(async (slot) => {
        const worker = slot.worker;
        slot.worker = undefined;
        if (worker) await worker.terminate();
      }));
    },
  };
}

export type YamlReader = ReturnType<typeof createYamlReader>;

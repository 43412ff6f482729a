// The parser worker thread: parses and chunks one document per message, so a
// heavy parse never blocks the server's event loop and a parse past its
// timeout is stopped for real (the pool terminates the thread).
import { parentPort } from 'node:worker_threads';
import { parseBytes, chunkParsed } from '../parsers/parse.ts';
import { createTokenCounter, type TokenCounter } from '../chunking/tokenizer.ts';
import type { ParseOptions } from '../parsers/types.ts';

export interface ParseTask {
  bytes: Uint8Array;
  options: Omit<ParseOptions, 'signal'>;
  tokenizer: string;
  chunkSize: number;
  chunkOverlap: number;
}

const counters = new Map<string, Promise<TokenCounter>>();

parentPort?.on('message', async (task: ParseTask) => {
  try {
    let counter = counters.get(task.tokenizer);
    if (!counter) counters.set(task.tokenizer, (counter = createTokenCounter(task.tokenizer)));
    const parsed = await parseBytes(task.bytes, task.options, await counter);
    parentPort!.postMessage({ phase: 'parsed' }); // the chunking timeout starts now
    const { chunks, language } = chunkParsed(parsed, await counter, task.chunkSize, task.chunkOverlap);
    parentPort!.postMessage({ ok: true, result: { parsed, chunks, language } });
  } catch (err) {
    parentPort!.postMessage({ ok: false, error: { name: (err as Error).name, message: (err as Error).message } });
  }
});

// The parser child process: parses and chunks one document per message, so a
// heavy parse never blocks the server's event loop, a parse past its timeout
// is stopped for real (the pool kills the process), and a parse that exhausts
// its heap (--max-old-space-size) ends this process only, never the server.
// It says `ready` once it listens, and ends when the server's side of the IPC
// channel goes away (the server exited).
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

if (!process.send) throw new Error('parse-child.ts runs as a child process with an IPC channel (pipeline/parser-pool.ts)');
const send = (message: unknown) => process.send!(message);
const counters = new Map<string, Promise<TokenCounter>>();

process.on('disconnect', () => process.exit(0));
process.on('message', async (task: ParseTask) => {
  try {
    let counter = counters.get(task.tokenizer);
    if (!counter) counters.set(task.tokenizer, (counter = createTokenCounter(task.tokenizer)));
    const parsed = await parseBytes(task.bytes, task.options, await counter);
    send({ phase: 'parsed' }); // the chunking timeout starts now
    const { chunks, language } = chunkParsed(parsed, await counter, task.chunkSize, task.chunkOverlap);
    send({ ok: true, result: { parsed, chunks, language } });
  } catch (err) {
    send({ ok: false, error: { name: (err as Error).name, message: (err as Error).message } });
  }
});
send({ phase: 'ready' });

// The embedded database's thread: PGlite (WASM Postgres, pgvector, pg_trgm)
// opened on the data dir and driven by wire-protocol messages from the main
// thread (embedded-engine.ts). A statement here never blocks the main
// thread's event loop, and the main thread can end this thread mid-statement
// (Worker.terminate interrupts WASM): PGlite writes through to the data dir,
// so what was committed is on disk and recovered on the next open.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { FromEngine, ToEngine } from './embedded-protocol.ts';

const port = parentPort!;
const post = (message: FromEngine, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

let db: PGlite;
try {
  db = await PGlite.create((workerData as { dir: string }).dir, { extensions: { vector, pg_trgm } });
  post({ kind: 'ready' });
} catch (err) {
  post({ kind: 'failed', message: (err as Error).message });
  throw err;
}

port.on('message', (request: ToEngine) => {
  void handle(request);
});

async function handle(request: ToEngine): Promise<void> {
  if (request.kind === 'close') {
    await db.close().catch(() => {});
    post({ kind: 'closed', id: request.id });
    return;
  }
  try {
    await db.runExclusive(() =>
      db.execProtocolRawStream(request.message, {
        onRawData: (data) => {
          // A copy: the reply may be a view of PGlite's memory, reused by the next call.
          const copy = data.slice();
          post({ kind: 'data', id: request.id, data: copy }, [copy.buffer as ArrayBuffer]);
        },
      }),
    );
    post({ kind: 'done', id: request.id, inTransaction: db.isInTransaction() });
  } catch (err) {
    post({ kind: 'error', id: request.id, message: (err as Error).message, inTransaction: db.isInTransaction() });
  }
}

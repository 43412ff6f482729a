// Messages between the main thread (embedded-engine.ts) and the embedded
// database's thread (embedded-worker.ts). One call runs at a time; `data`
// messages stream its reply before its `done` (or `error`).

export type ToEngine =
  | { kind: 'exec'; id: number; message: Uint8Array }
  | { kind: 'close'; id: number };

export type FromEngine =
  | { kind: 'ready' }
  | { kind: 'failed'; message: string }
  | { kind: 'data'; id: number; data: Uint8Array }
  | { kind: 'done'; id: number; inTransaction: boolean }
  | { kind: 'error'; id: number; message: string; inTransaction: boolean }
  | { kind: 'closed'; id: number };
